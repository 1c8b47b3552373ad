/**
 * Units of the Open-Meteo answers: the conversions of its temperature_unit, wind_speed_unit and
 * precipitation_unit parameters (factors as in Open-Meteo's Sources/App/Helper/SiUnit.swift), and
 * per unit the label of `*_units`, the SDK's Unit code and the decimals of the JSON values (the
 * SDK's significantDigits).
 */
import { Unit } from "@openmeteo/sdk/unit.js";

export interface OutputUnit {
  /** As written in hourly_units, daily_units and current_units. */
  label: string;
  sdk: Unit;
  /** Decimals of the JSON values (fixed, as Open-Meteo writes them: 12.0, 0.20). */
  decimals: number;
}

const u = (label: string, sdk: Unit, decimals: number): OutputUnit => ({ label, sdk, decimals });

export const UNITS = {
  celsius: u("°C", Unit.celsius, 1),
  fahrenheit: u("°F", Unit.fahrenheit, 1),
  kmh: u("km/h", Unit.kilometres_per_hour, 1),
  ms: u("m/s", Unit.metre_per_second, 2),
  mph: u("mp/h", Unit.miles_per_hour, 1),
  kn: u("kn", Unit.knots, 1),
  mm: u("mm", Unit.millimetre, 2),
  inch: u("inch", Unit.inch, 3),
  metre: u("m", Unit.metre, 2),
  feet: u("ft", Unit.feet, 3),
  percent: u("%", Unit.percentage, 0),
  hectopascal: u("hPa", Unit.hectopascal, 1),
  degree: u("°", Unit.degree_direction, 0),
  dimensionless: u("", Unit.dimensionless, 2),
  hours: u("h", Unit.hours, 1),
  seconds: u("s", Unit.seconds, 2),
  wmoCode: u("wmo code", Unit.wmo_code, 0),
  centimetre: u("cm", Unit.centimetre, 2),
  wattPerSquareMetre: u("W/m²", Unit.watt_per_square_metre, 1),
  joulePerKilogram: u("J/kg", Unit.joule_per_kilogram, 1),
  kilopascal: u("kPa", Unit.kilopascal, 2),
  cubicMetrePerCubicMetre: u("m³/m³", Unit.cubic_metre_per_cubic_metre, 3),
  iso8601: u("iso8601", Unit.iso8601, 0),
  unixtime: u("unixtime", Unit.unix_time, 0),
} as const;

/** The kind of quantity a variable is, which decides which unit parameter converts it. */
export type Quantity =
  | "temperature"
  | "windSpeed"
  | "precipitation"
  | "height"
  | "percent"
  | "pressure"
  | "direction"
  | "dimensionless"
  | "hours"
  // Only for variables Open-Meteo knows and we answer null: their unit label.
  | "snowfall"
  | "wmoCode"
  | "radiation"
  | "energy"
  | "vapourPressure"
  | "soilMoisture";

export type TemperatureUnit = "celsius" | "fahrenheit";
export type WindSpeedUnit = "kmh" | "ms" | "mph" | "kn";
export type PrecipitationUnit = "mm" | "inch";

export interface UnitChoice {
  temperature: TemperatureUnit;
  windSpeed: WindSpeedUnit;
  precipitation: PrecipitationUnit;
}

export const DEFAULT_UNITS: UnitChoice = { temperature: "celsius", windSpeed: "kmh", precipitation: "mm" };

export interface Conversion {
  unit: OutputUnit;
  /** From our units (°C, m/s, mm, m, %, hPa, °) to the output unit. */
  factor: number;
  offset: number;
}

const same = (unit: OutputUnit): Conversion => ({ unit, factor: 1, offset: 0 });
const WIND: Record<WindSpeedUnit, Conversion> = {
  kmh: { unit: UNITS.kmh, factor: 3.6, offset: 0 },
  ms: same(UNITS.ms),
  mph: { unit: UNITS.mph, factor: 2.237, offset: 0 },
  kn: { unit: UNITS.kn, factor: 1.94384, offset: 0 },
};

/** How a quantity of ours is written for the requested units. */
export function conversionOf(quantity: Quantity, units: UnitChoice): Conversion {
  switch (quantity) {
    case "temperature":
      return units.temperature === "fahrenheit" ? { unit: UNITS.fahrenheit, factor: 9 / 5, offset: 32 } : same(UNITS.celsius);
    case "windSpeed":
      return WIND[units.windSpeed];
    case "precipitation":
      return units.precipitation === "inch" ? { unit: UNITS.inch, factor: 1 / 25.4, offset: 0 } : same(UNITS.mm);
    case "height":
      // Open-Meteo turns metres into feet when precipitation_unit=inch.
      return units.precipitation === "inch" ? { unit: UNITS.feet, factor: 3.280839895, offset: 0 } : same(UNITS.metre);
    case "percent":
      return same(UNITS.percent);
    case "pressure":
      return same(UNITS.hectopascal);
    case "direction":
      return same(UNITS.degree);
    case "dimensionless":
      return same(UNITS.dimensionless);
    case "hours":
      return same(UNITS.hours);
    case "snowfall":
      return units.precipitation === "inch" ? { unit: UNITS.inch, factor: 1 / 2.54, offset: 0 } : same(UNITS.centimetre);
    case "wmoCode":
      return same(UNITS.wmoCode);
    case "radiation":
      return same(UNITS.wattPerSquareMetre);
    case "energy":
      return same(UNITS.joulePerKilogram);
    case "vapourPressure":
      return same(UNITS.kilopascal);
    case "soilMoisture":
      return same(UNITS.cubicMetrePerCubicMetre);
  }
}

const POWERS = [1, 10, 100, 1000];
/** ".0" ... ".9", ".00" ... ".99", ".000" ... ".999": the fraction digits, made once. */
const FRACTIONS: readonly (readonly string[])[] = [[""], ...[1, 2, 3].map((d) => Array.from({ length: 10 ** d }, (_, i) => `.${String(i).padStart(d, "0")}`))];

/**
 * A value as Open-Meteo writes it in JSON: fixed decimals (0 to 3), halves away from zero, `null`
 * for NaN (Open-Meteo's NumberExtensions formatted(decimals:)); never "-0.0". Written from integers
 * and a table of fraction digits: an answer holds thousands of values.
 */
export function formatValue(x: number, decimals: number): string {
  if (x !== x || x === Infinity || x === -Infinity) return "null";
  const f = POWERS[decimals]!;
  const scaled = Math.round((x < 0 ? -x : x) * f);
  // Beyond int32 (never for weather values): the same digits the slow way.
  const int = scaled < 2 ** 31 ? (scaled / f) | 0 : Math.floor(scaled / f);
  const text = int + FRACTIONS[decimals]![scaled - int * f]!;
  return x < 0 && scaled !== 0 ? `-${text}` : text;
}
