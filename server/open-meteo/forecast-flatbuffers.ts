/**
 * The FlatBuffers answer of /v1/forecast (`format=flatbuffers`, what the `openmeteo` SDK asks
 * for): one size-prefixed WeatherApiResponse per location, one after another, laid out by the
 * schema of @openmeteo/sdk (flatbuffers/weather_api.fbs; the field slots below are its field
 * order). Values are float32 in the output unit, unrounded; null is NaN. As Open-Meteo writes
 * them (Sources/App/Helper/FlatBufferWriter/FlatBuffersWriter.swift), the timezone strings are
 * left out for GMT and times are UTC epoch seconds.
 */
import { Builder } from "flatbuffers";
import type { CurrentSection, LocationForecast, Section, ValuesColumn } from "./location-forecast.ts";
import type { SdkMeta } from "./hourly-variables.ts";

/** VariableWithValues' field slots. */
const V = { variable: 0, unit: 1, value: 2, values: 3, valuesInt64: 4, altitude: 5, aggregation: 6, pressureLevel: 7, depth: 8, depthTo: 9 } as const;
/** VariablesWithTime's field slots. */
const T = { time: 0, timeEnd: 1, interval: 2, variables: 3 } as const;
/** WeatherApiResponse's field slots. */
const R = { latitude: 0, longitude: 1, elevation: 2, generationTime: 3, locationId: 4, model: 5, utcOffset: 6, timezone: 7, abbreviation: 8, current: 9, daily: 10, hourly: 11 } as const;
/** The SDK's sentinel for an instant that does not occur that day (sunrise in a polar night). */
const MISSING_INSTANT = 9_223_372_036_854_775_807n;

function addMeta(b: Builder, sdk: SdkMeta, unit: number): void {
  b.addFieldInt8(V.variable, sdk.variable, 0);
  b.addFieldInt8(V.unit, unit, 0);
  b.addFieldInt16(V.altitude, sdk.altitude, 0);
  b.addFieldInt8(V.aggregation, sdk.aggregation, 0);
  b.addFieldInt16(V.pressureLevel, sdk.pressureLevel, 0);
  b.addFieldInt16(V.depth, sdk.depth, 0);
  b.addFieldInt16(V.depthTo, sdk.depthTo, 0);
}

function column(b: Builder, c: ValuesColumn): number {
  const n = c.values.length;
  let vector: number;
  if (c.instants) {
    b.startVector(8, n, 8);
    for (let i = n - 1; i >= 0; i--) b.addInt64(c.values[i]! === c.values[i]! ? BigInt(c.values[i]!) : MISSING_INSTANT);
  } else {
    b.startVector(4, n, 4);
    for (let i = n - 1; i >= 0; i--) b.addFloat32(c.values[i]!);
  }
  vector = b.endVector();
  b.startObject(13);
  addMeta(b, c.sdk, c.unit.sdk);
  b.addFieldOffset(c.instants ? V.valuesInt64 : V.values, vector, 0);
  return b.endObject();
}

function variablesWithTime(b: Builder, time: number, timeEnd: number, interval: number, variables: number[]): number {
  b.startVector(4, variables.length, 4);
  for (let i = variables.length - 1; i >= 0; i--) b.addOffset(variables[i]!);
  const vector = b.endVector();
  b.startObject(4);
  b.addFieldInt64(T.time, BigInt(time), 0n);
  b.addFieldInt64(T.timeEnd, BigInt(timeEnd), 0n);
  b.addFieldInt32(T.interval, interval, 0);
  b.addFieldOffset(T.variables, vector, 0);
  return b.endObject();
}

function section(b: Builder, s: Section): number {
  return variablesWithTime(b, s.start, s.start + s.count * s.interval, s.interval, s.columns.map((c) => column(b, c)));
}

function current(b: Builder, s: CurrentSection): number {
  const variables = s.columns.map((c) => {
    b.startObject(13);
    addMeta(b, c.sdk, c.unit.sdk);
    b.addFieldFloat32(V.value, c.value, 0);
    return b.endObject();
  });
  return variablesWithTime(b, s.time, s.time + s.interval, s.interval, variables);
}

function location(b: Builder, f: LocationForecast, locationId: number): void {
  const hourly = f.hourly ? section(b, f.hourly) : 0;
  const daily = f.daily ? section(b, f.daily) : 0;
  const now = f.current ? current(b, f.current) : 0;
  const timezone = f.timezone === "GMT" ? 0 : b.createString(f.timezone);
  const abbreviation = f.abbreviation === "GMT" ? 0 : b.createString(f.abbreviation);
  b.startObject(15);
  b.addFieldFloat32(R.latitude, f.latitude, 0);
  b.addFieldFloat32(R.longitude, f.longitude, 0);
  b.addFieldFloat32(R.elevation, f.elevation, 0);
  b.addFieldFloat32(R.generationTime, f.generationMs, 0);
  b.addFieldInt64(R.locationId, BigInt(locationId), 0n);
  b.addFieldInt8(R.model, f.model, 0);
  b.addFieldInt32(R.utcOffset, f.utcOffsetSeconds, 0);
  b.addFieldOffset(R.timezone, timezone, 0);
  b.addFieldOffset(R.abbreviation, abbreviation, 0);
  b.addFieldOffset(R.current, now, 0);
  b.addFieldOffset(R.daily, daily, 0);
  b.addFieldOffset(R.hourly, hourly, 0);
  b.finishSizePrefixed(b.endObject());
}

/** The whole body: the locations' messages in request order. */
export function forecastFlatBuffers(locations: readonly LocationForecast[]): Uint8Array {
  const b = new Builder(4096);
  const parts: Uint8Array[] = [];
  locations.forEach((f, i) => {
    location(b, f, i);
    parts.push(b.asUint8Array().slice());
    b.clear();
  });
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
