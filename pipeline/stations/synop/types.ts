/**
 * A decoded land SYNOP (WMO FM 12, AAXX). Members are present only when the report gives them.
 * Code figures are kept as numbers where the record needs them (ww, CL/CM/CH); quantities are
 * converted to SI-style units named in the member.
 */
import type { UnreadGroup } from "../unread.ts";

export interface SynopPrecipitation {
  /** mm; 0 for "trace" (code 990), with `trace` set. */
  mm?: number;
  trace: boolean;
  /** Period ending at the observation, hours (code table 4019); undefined for tR = 0 or /. */
  periodH?: number;
}

export interface SynopCloudLayer {
  octas?: number;
  /** Genus, code table 0500 (0 Ci ... 9 Cb). */
  genus?: number;
  /** Height code hshs (table 1677) and its value in metres. */
  heightCode?: number;
  heightM?: number;
}

export interface SpecialPhenomenon {
  /** SpSp of 9SpSpspsp (code table 3778), e.g. 10 and 11 for gusts. */
  code: number;
  value: string;
}

export interface SynopSection3 {
  maxTemperatureC?: number;
  minTemperatureC?: number;
  groundState?: number;
  groundTemperatureC?: number;
  groundStateSnow?: number;
  /** Snow depth, cm (code table 3889: 997 < 0.5 cm, 998 patches, 999 not measurable). */
  snowDepthCm?: number;
  evaporationMm?: number;
  /** 54g0sndT: temperature change, deg C, and when it began (hours before). */
  temperatureChange?: { hoursBefore: number; changeC: number };
  sunshineH?: number;
  sunshinePeriodH?: number;
  /** Radiation groups j5FFFF after 55SSS / 553SS, J/cm2, keyed by j5. */
  radiation: { j: number; value?: number }[];
  cloudDrift?: { low?: number; middle?: number; high?: number };
  cloudDirection?: { genus?: number; direction?: number; elevation?: number };
  pressureChange24hHpa?: number;
  precipitation?: SynopPrecipitation;
  precipitation24hMm?: number;
  cloudLayers: SynopCloudLayer[];
  special: SpecialPhenomenon[];
  /**
   * Gusts of 910ff (highest gust in the 10 minutes before the observation) and 911ff (highest
   * gust during the period of W1W2 or of a preceding 907tt), in the unit of iw and in knots.
   */
  gusts: { window: "10min" | "period"; speed?: number; speedKt?: number }[];
  /** Group 0 of section 3 is regional: kept as written. */
  regional: string[];
}

export interface SynopReport {
  /** Section 0: AAXX, day, hour (nominal), wind unit indicator iw. */
  day?: number;
  hour?: number;
  windUnit?: "m/s" | "kt";
  windMeasured?: boolean;
  station?: string;
  nil: boolean;
  /** iR (1819), iX (1860), h (1600) and VV (4377) with visibility in metres (lower bound of the class). */
  precipitationIndicator?: number;
  weatherIndicator?: number;
  cloudBaseCode?: number;
  visibilityCode?: number;
  visibilityM?: number;
  /** N, octas; 9 = sky obscured. */
  totalCloudOctas?: number;
  windDirectionDeg?: number;
  windCalm?: boolean;
  windVariable?: boolean;
  /** In the unit given by iw, and converted. */
  windSpeed?: number;
  windSpeedMps?: number;
  windSpeedKt?: number;
  temperatureC?: number;
  dewpointC?: number;
  relativeHumidity?: number;
  stationPressureHpa?: number;
  seaLevelPressureHpa?: number;
  geopotential?: { levelHpa: number; gpm: number };
  pressureTendency?: { characteristic?: number; changeHpa?: number };
  precipitation?: SynopPrecipitation;
  /** ww (4677) when iX is 1 or 4; wawa (4680) when iX is 7. */
  presentWeather?: number;
  presentWeatherTable?: "4677" | "4680";
  pastWeather1?: number;
  pastWeather2?: number;
  lowCloudOctas?: number;
  cloudLow?: number;
  cloudMiddle?: number;
  cloudHigh?: number;
  exactTime?: { hour: number; minute: number };
  section3?: SynopSection3;
  /** Sections 2, 4 and 5 (and national sections) as written. */
  section2?: string;
  section4?: string;
  section5?: string;
  /** Groups of sections 0, 1 and 3 that could not be read. */
  unread: UnreadGroup[];
  /** Groups of sections 1 and 3 seen and read (the decode-share measure). */
  groupsSeen: number;
  groupsRead: number;
}
