/**
 * The hourly (and current) variables of /v1/forecast: the Open-Meteo names our store answers,
 * each taken from the same time slot /weather/point writes (server/weather/slot-table.ts: the same
 * interpolation, height correction and rounding), and every other name Open-Meteo knows, which
 * answers null. A name Open-Meteo does not know is a 400 (its wording).
 */
import { Aggregation } from "@openmeteo/sdk/aggregation.js";
import { Variable } from "@openmeteo/sdk/variable.js";
import type { NumericMember } from "../weather/slot-table.ts";
import { openMeteoError } from "./open-meteo-error.ts";
import { OPEN_METEO_HOURLY_ALIASES, OPEN_METEO_HOURLY_NAMES, OPEN_METEO_PRESSURE_LEVELS, OPEN_METEO_PRESSURE_VARIABLES } from "./known-names.ts";
import type { Quantity } from "./units.ts";

/** Stored pressure-level temperatures, read in kelvin from the point's series (not a slot member). */
export type StoredLevel = "temperature_925hPa" | "temperature_850hPa";

/** Where a served variable's values come from: a slot column, or a stored level temperature. */
export type HourlySource = { column: NumericMember } | { level: StoredLevel };

/** How the SDK's FlatBuffers describe a variable (VariableWithValues' fields). */
export interface SdkMeta {
  variable: Variable;
  altitude: number;
  pressureLevel: number;
  depth: number;
  depthTo: number;
  aggregation: Aggregation;
}

export interface HourlyVariable {
  /** The name as requested, written back as is (Open-Meteo keeps an older spelling too). */
  name: string;
  quantity: Quantity;
  /** Undefined: Open-Meteo knows the name, our store does not hold it; the values are null. */
  source: HourlySource | undefined;
  sdk: SdkMeta;
}

interface Served {
  quantity: Quantity;
  source: HourlySource;
}

/** The names we answer, and from what. */
const SERVED: Readonly<Record<string, Served>> = {
  temperature_2m: { quantity: "temperature", source: { column: "surface" } },
  temperature_2m_max: { quantity: "temperature", source: { column: "max" } },
  temperature_2m_min: { quantity: "temperature", source: { column: "min" } },
  relative_humidity_2m: { quantity: "percent", source: { column: "humidity" } },
  pressure_msl: { quantity: "pressure", source: { column: "pressure" } },
  precipitation: { quantity: "precipitation", source: { column: "precipitation" } },
  // Open-Meteo: "showers from convective precipitation"; GFS ACPCP.
  showers: { quantity: "precipitation", source: { column: "precipitationConvective" } },
  precipitation_probability: { quantity: "percent", source: { column: "probability" } },
  cloud_cover: { quantity: "percent", source: { column: "cloudTotal" } },
  cloud_cover_low: { quantity: "percent", source: { column: "cloudLow" } },
  cloud_cover_mid: { quantity: "percent", source: { column: "cloudMiddle" } },
  cloud_cover_high: { quantity: "percent", source: { column: "cloudHigh" } },
  wind_speed_10m: { quantity: "windSpeed", source: { column: "speed" } },
  wind_direction_10m: { quantity: "direction", source: { column: "direction" } },
  wind_gusts_10m: { quantity: "windSpeed", source: { column: "gust" } },
  lifted_index: { quantity: "dimensionless", source: { column: "liftedIndex" } },
  boundary_layer_height: { quantity: "height", source: { column: "hpbl" } },
  freezing_level_height: { quantity: "height", source: { column: "isotherm" } },
  temperature_925hPa: { quantity: "temperature", source: { level: "temperature_925hPa" } },
  temperature_850hPa: { quantity: "temperature", source: { level: "temperature_850hPa" } },
};

/** The Open-Meteo names answered from our store (docs/compatibility.md lists them). */
export const SERVED_HOURLY_NAMES: readonly string[] = Object.keys(SERVED);

const KNOWN = new Set(OPEN_METEO_HOURLY_NAMES);
const PRESSURE = /^([a-z_]+)_(\d+)hPa$/;

/** The unit of a name we answer null for, from its name (only its label and SDK code are written). */
export function quantityOfUnserved(name: string): Quantity {
  if (/^(weather_code|precipitation_type)$/.test(name)) return "wmoCode";
  if (/temperature|dew_point/.test(name)) return "temperature";
  if (/^(wind_speed|wind_gusts|ocean_current_velocity)/.test(name)) return "windSpeed";
  if (/direction/.test(name)) return "direction";
  if (/^snowfall$/.test(name)) return "snowfall";
  if (/^(rain|showers|precipitation|evapotranspiration|et0_fao|runoff|snowfall_water|snow_depth_water)/.test(name) && !/probability/.test(name)) return "precipitation";
  if (/probability|cloud_cover|humidity/.test(name)) return "percent";
  if (/pressure_msl|surface_pressure/.test(name)) return "pressure";
  if (/vapour_pressure/.test(name)) return "vapourPressure";
  if (/radiation|irradiance/.test(name)) return "radiation";
  if (/^(cape|convective_inhibition)$/.test(name)) return "energy";
  if (/soil_moisture/.test(name)) return "soilMoisture";
  if (/height|depth|visibility|cloud_base|cloud_top|thickness/.test(name)) return "height";
  if (/duration/.test(name)) return "hours";
  return "dimensionless";
}

/**
 * The SDK's description of a name, from its parts as Open-Meteo writes them: `_<n>hPa` is a
 * pressure level, `_<a>_to_<b>cm` / `_<d>cm` a soil depth, `_<h>m` a height above ground,
 * `_max`/`_min` (hourly window extremes) an aggregation.
 */
export function sdkMetaOf(name: string, aggregation: Aggregation = Aggregation.none): SdkMeta {
  const meta: SdkMeta = { variable: Variable.undefined, altitude: 0, pressureLevel: 0, depth: 0, depthTo: 0, aggregation };
  let base = name;
  let m: RegExpExecArray | null;
  if ((m = /^(.*)_(\d+)hPa$/.exec(base))) {
    base = m[1]!;
    meta.pressureLevel = Number(m[2]);
  } else if ((m = /^(soil_\w+?)_(\d+)_to_(\d+)cm$/.exec(base))) {
    base = m[1]!;
    meta.depth = Number(m[2]);
    meta.depthTo = Number(m[3]);
  } else if ((m = /^(soil_\w+?)_(\d+)cm$/.exec(base))) {
    base = m[1]!;
    meta.depth = Number(m[2]);
  } else if ((m = /^(.*)_(\d+)m(_max|_min)?$/.exec(base))) {
    base = m[1]!;
    meta.altitude = Number(m[2]);
    if (m[3] === "_max") meta.aggregation = Aggregation.maximum;
    if (m[3] === "_min") meta.aggregation = Aggregation.minimum;
  }
  const code = (Variable as unknown as Record<string, number | undefined>)[base];
  meta.variable = typeof code === "number" ? (code as Variable) : Variable.undefined;
  return meta;
}

/** One requested name, resolved; a name Open-Meteo does not know is a 400 naming it and the parameter. */
export function hourlyVariable(name: string, parameter: string): HourlyVariable {
  const canonical = OPEN_METEO_HOURLY_ALIASES[name] ?? name;
  const served = SERVED[canonical];
  if (served) return { name, quantity: served.quantity, source: served.source, sdk: sdkMetaOf(canonical) };
  const pressure = PRESSURE.exec(canonical);
  if (KNOWN.has(canonical) || (pressure && OPEN_METEO_PRESSURE_VARIABLES.includes(pressure[1]!) && OPEN_METEO_PRESSURE_LEVELS.includes(Number(pressure[2])))) {
    return { name, quantity: pressure ? quantityOfUnserved(pressure[1]!) : quantityOfUnserved(canonical), source: undefined, sdk: sdkMetaOf(canonical) };
  }
  throw openMeteoError(`Cannot initialize WeatherVariable from invalid String value ${name} for key ${parameter}`);
}
