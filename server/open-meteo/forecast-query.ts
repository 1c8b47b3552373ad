/**
 * The query of /v1/forecast, checked once into a typed object: Open-Meteo's parameters of the
 * subset we answer (docs/compatibility.md), its list syntax (comma-separated, empty items
 * skipped) and its error wording (Sources/App/Helper/ForecastapiQuery.swift).
 */
import type { Query } from "../api/query.ts";
import { dailyVariable, type DailyVariable } from "./daily-variables.ts";
import { hourlyVariable, type HourlyVariable } from "./hourly-variables.ts";
import { openMeteoError } from "./open-meteo-error.ts";
import { isValidZone } from "./time-zone.ts";
import { DEFAULT_UNITS, type PrecipitationUnit, type TemperatureUnit, type UnitChoice, type WindSpeedUnit } from "./units.ts";

export const FORECAST_PARAMS = [
  "latitude",
  "longitude",
  "hourly",
  "current",
  "daily",
  "models",
  "timezone",
  "forecast_days",
  "past_days",
  "temperature_unit",
  "wind_speed_unit",
  "windspeed_unit",
  "precipitation_unit",
  "timeformat",
  "cell_selection",
  "format",
] as const;

export const MAX_LOCATIONS = 100;
export const FORECAST_DAYS_DEFAULT = 7;
export const FORECAST_DAYS_MAX = 16;
export const PAST_DAYS_MAX = 92;

export type AnswerFormat = "json" | "flatbuffers";

export interface ForecastQuery {
  points: { lat: number; lon: number }[];
  hourly: HourlyVariable[] | undefined;
  current: HourlyVariable[] | undefined;
  daily: DailyVariable[] | undefined;
  /** The one model asked for (`best_match` when none). */
  model: string;
  /** One zone per point: an IANA id, `auto`, or GMT when none was given. */
  timezones: string[];
  forecastDays: number;
  pastDays: number;
  units: UnitChoice;
  timeformat: "iso8601" | "unixtime";
  format: AnswerFormat;
}

/** Items of a comma-separated list, empty ones skipped (Swift's split). */
export function listOf(raw: string | undefined): string[] | undefined {
  return raw === undefined ? undefined : raw.split(",").filter((s) => s.length > 0);
}

const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The coordinates of `latitude` and `longitude` (Open-Meteo's checks and messages). */
export function parseCoordinates(query: Query, max: number): { lat: number; lon: number }[] {
  const numbers = (name: string): number[] =>
    (listOf(query.get(name)) ?? []).map((s) => {
      if (s.length > 32 || !FLOAT.test(s)) throw openMeteoError(`Cannot initialize Float from invalid String value ${s} for key ${name}`);
      return Number(s);
    });
  const lats = numbers("latitude");
  const lons = numbers("longitude");
  if (lats.length !== lons.length) throw openMeteoError("Parameter 'latitude' and 'longitude' must have the same number of elements");
  if (lats.length === 0) throw openMeteoError("Parameter 'latitude' and 'longitude' must not be empty");
  if (lats.length > max) throw openMeteoError(`Parameter 'latitude' and 'longitude' must not exceed ${max} coordinates.`);
  return lats.map((lat, i) => {
    const lon = lons[i]!;
    if (!(lat >= -90 && lat <= 90)) throw openMeteoError(`Latitude must be in range of -90 to 90°. Given: ${lat}.`);
    if (!(lon >= -180 && lon <= 180)) throw openMeteoError(`Longitude must be in range of -180 to 180°. Given: ${lon}.`);
    return { lat: lat === 0 ? 0 : lat, lon: lon === 0 ? 0 : lon };
  });
}

/** One of `allowed`, or the default; Open-Meteo's decoding message names the Swift type it decodes into. */
function choice<T extends string>(query: Query, name: string, type: string, allowed: readonly T[], fallback: T): T {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw openMeteoError(`Cannot initialize ${type} from invalid String value ${raw} for key ${name}`);
  return raw as T;
}

function integer(query: Query, name: string, fallback: number, max: number, message: (given: string) => string): number {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d{1,9}$/.test(raw)) throw openMeteoError(`Cannot initialize Int from invalid String value ${raw} for key ${name}`);
  const value = Number(raw);
  if (value < 0 || value > max) throw openMeteoError(message(raw));
  return value;
}

export function parseForecastQuery(query: Query): ForecastQuery {
  const points = parseCoordinates(query, MAX_LOCATIONS);
  const hourly = listOf(query.get("hourly"))?.map((n) => hourlyVariable(n, "hourly"));
  const current = listOf(query.get("current"))?.map((n) => hourlyVariable(n, "current"));
  const daily = listOf(query.get("daily"))?.map((n) => dailyVariable(n));
  const models = listOf(query.get("models")) ?? [];
  if (models.length > 1) throw openMeteoError("Geodata answers one model per call: give one name in 'models' (or best_match).");

  const zones = listOf(query.get("timezone")) ?? [];
  for (const z of zones) if (z !== "auto" && !isValidZone(z)) throw openMeteoError("Invalid timezone");
  if (zones.length > 1 && zones.length !== points.length) throw openMeteoError("Parameter 'timezone' and coordinates must have the same number of elements");
  const timezones = points.map((_, i) => (zones.length === 0 ? "GMT" : zones.length === 1 ? zones[0]! : zones[i]!));

  const windSpeed = choice<WindSpeedUnit>(query, "wind_speed_unit", "WindspeedUnit", ["kmh", "ms", "mph", "kn"], choice<WindSpeedUnit>(query, "windspeed_unit", "WindspeedUnit", ["kmh", "ms", "mph", "kn"], DEFAULT_UNITS.windSpeed));
  const units: UnitChoice = {
    temperature: choice<TemperatureUnit>(query, "temperature_unit", "TemperatureUnit", ["celsius", "fahrenheit"], DEFAULT_UNITS.temperature),
    windSpeed,
    precipitation: choice<PrecipitationUnit>(query, "precipitation_unit", "PrecipitationUnit", ["mm", "inch"], DEFAULT_UNITS.precipitation),
  };
  // cell_selection is checked and has no effect: we interpolate between the four grid nodes around the point.
  choice(query, "cell_selection", "GridSelectionMode", ["land", "sea", "nearest"], "land");
  const format = query.get("format");
  if (format !== undefined && format !== "json" && format !== "flatbuffers") {
    throw openMeteoError(`Geodata answers format=json or format=flatbuffers; got ${format}.`);
  }
  return {
    points,
    hourly,
    current,
    daily,
    model: models[0] ?? "best_match",
    timezones,
    forecastDays: integer(query, "forecast_days", FORECAST_DAYS_DEFAULT, FORECAST_DAYS_MAX, (g) => `Forecast days is invalid. Allowed range 0 to ${FORECAST_DAYS_MAX}. Given ${g}.`),
    pastDays: integer(query, "past_days", 0, PAST_DAYS_MAX, (g) => `Past days is invalid. Allowed range 0 to ${PAST_DAYS_MAX}. Given ${g}.`),
    units,
    timeformat: choice(query, "timeformat", "Timeformat", ["iso8601", "unixtime"], "iso8601"),
    format: format ?? "json",
  };
}
