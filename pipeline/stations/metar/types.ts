/**
 * A decoded METAR or SPECI (WMO FM 15 / FM 16, with US practice). Every member except the lists
 * is optional: a report decodes to whatever it says. Units are in the member names or comments.
 */
import type { UnreadGroup } from "../unread.ts";

export type SpeedUnit = "KT" | "MPS" | "KMH";

export interface MetarWind {
  /** Degrees true; undefined when variable (VRB) or missing (///). 0 with speed 0 is calm. */
  directionDeg?: number;
  variable: boolean;
  /** Speed and gust in the unit reported. */
  speed?: number;
  gust?: number;
  unit: SpeedUnit;
  /** Speed and gust converted to knots. */
  speedKt?: number;
  gustKt?: number;
  /** Variable sector `dddVddd`, degrees. */
  variableFromDeg?: number;
  variableToDeg?: number;
}

export interface DirectionalVisibility {
  metres: number;
  /** Compass octant (N, NE, ...). */
  direction: string;
}

export interface MetarVisibility {
  /** Prevailing visibility, metres (`9999` gives 10000: "10 km or more"). */
  metres?: number;
  /** The value is a bound: `M1/4SM` is "less than", `P6SM` and `9999` are "more than or equal". */
  qualifier?: "lessThan" | "atLeast";
  /** Statute miles as reported, when given in SM. */
  statuteMiles?: number;
  cavok: boolean;
  /** `NDV`: no directional variation can be given (automatic stations). */
  ndv: boolean;
  directional: DirectionalVisibility[];
}

export interface RunwayVisualRange {
  runway: string;
  /** Metres or feet as reported, see `unit`. */
  value?: number;
  variableTo?: number;
  qualifier?: "lessThan" | "moreThan";
  unit: "m" | "ft";
  tendency?: "U" | "D" | "N";
  raw: string;
}

export interface WeatherGroup {
  intensity: "light" | "moderate" | "heavy";
  vicinity: boolean;
  /** MI, PR, BC, DR, BL, SH, TS, FZ. */
  descriptor?: string;
  /** Two-letter phenomena in order: DZ, RA, SN, ..., FC, SS, DS. */
  phenomena: string[];
  recent: boolean;
  raw: string;
}

export interface CloudLayer {
  /** FEW, SCT, BKN, OVC; undefined for `///`. */
  cover?: "FEW" | "SCT" | "BKN" | "OVC";
  /** Base above ground, feet. */
  baseFt?: number;
  /** CB, TCU. */
  type?: "CB" | "TCU";
}

export interface MetarRemarks {
  raw: string;
  /** AO1, AO2, AO1A, AO2A. */
  stationType?: string;
  seaLevelPressureHpa?: number;
  /** P group: precipitation since the last hourly report, mm (converted from hundredths of inch). */
  hourlyPrecipitationMm?: number;
  /** 6 group: 3- or 6-hour precipitation, mm; `6////` leaves it undefined with `...Indeterminate`. */
  precipitation3or6hMm?: number;
  precipitation3or6hIndeterminate?: boolean;
  /** 7 group: 24-hour precipitation, mm. */
  precipitation24hMm?: number;
  /** T group, tenths of a degree. */
  temperatureC?: number;
  dewpointC?: number;
  max6hC?: number;
  min6hC?: number;
  max24hC?: number;
  min24hC?: number;
  /** 5appp: characteristic (0-8) and change, hPa. */
  pressureTendency?: { characteristic: number; changeHpa: number };
  /** 4/sss: snow depth, inches. */
  snowDepthIn?: number;
  peakWind?: { directionDeg: number; speedKt: number; time: string };
  maintenance: boolean;
}

export interface MetarReport {
  kind: "METAR" | "SPECI";
  station?: string;
  day?: number;
  hour?: number;
  minute?: number;
  auto: boolean;
  correction: boolean;
  nil: boolean;
  wind?: MetarWind;
  visibility?: MetarVisibility;
  rvr: RunwayVisualRange[];
  weather: WeatherGroup[];
  recentWeather: WeatherGroup[];
  clouds: CloudLayer[];
  /** VV: vertical visibility, feet (undefined height for `VV///`). */
  verticalVisibilityFt?: number;
  skyObscured: boolean;
  /** SKC, CLR, NSC or NCD. */
  clearSky?: "SKC" | "CLR" | "NSC" | "NCD";
  temperatureC?: number;
  dewpointC?: number;
  /** QNH in hPa, from Q or converted from A (inches of mercury). */
  altimeterHpa?: number;
  altimeterInHg?: number;
  /** Trend forecasts (NOSIG, BECMG ..., TEMPO ...) as written. */
  trends: string[];
  remarks?: MetarRemarks;
  /** Groups of the body (before RMK) that could not be read. */
  unread: UnreadGroup[];
}
