/**
 * One location of a /v1/forecast answer, format-free: the point's forecast exactly as /weather/point
 * computes it (pointWeather: the same run, interpolation, height correction and rounding), laid
 * on Open-Meteo's time axis and converted to the requested units.
 *
 * Time axis (Open-Meteo's): hourly from 00:00 local of the reference day, minus past_days, for
 * past_days + forecast_days days; one UTC offset for the whole answer. The reference day is
 * today, or, when the answering run ended before today (an old run, like the embedded default's
 * samples), the day of the run's first step: /weather/point keeps such a run's own dates too.
 * An hour with no model step (3- or 6-hourly runs, beyond the run) is null, never interpolated.
 */
import type { Model } from "@openmeteo/sdk/model.js";
import { sunEvents } from "../admin-description/solar.ts";
import { elevationObject } from "../elevation/elevation-object.ts";
import { SLOT_VARIABLE_INDEX } from "../weather/point-series.ts";
import { elevationAt, pointWeather, type PointWeather, type WeatherInputs } from "../weather/point-weather.ts";
import { numbers } from "../weather/numbers.ts";
import { roundTo } from "../weather/slot-table.ts";
import { aggregateDay, type DailyVariable } from "./daily-variables.ts";
import type { ForecastQuery } from "./forecast-query.ts";
import type { HourlyVariable, SdkMeta } from "./hourly-variables.ts";
import { selectModel } from "./models.ts";
import { openMeteoError } from "./open-meteo-error.ts";
import { DAY_MS, HOUR_MS, zoneAbbreviation, zoneOffsetMs } from "./time-zone.ts";
import { UNITS, conversionOf, type Conversion, type OutputUnit } from "./units.ts";

export interface ValuesColumn {
  name: string;
  sdk: SdkMeta;
  unit: OutputUnit;
  /** In the output unit, unrounded (JSON rounds to unit.decimals); NaN = null. */
  values: number[];
  /** Sunrise and sunset: the values are instants, epoch seconds (NaN = none that day). */
  instants?: true;
}

export interface Section {
  /** First time, epoch seconds (UTC). */
  start: number;
  /** Seconds between times. */
  interval: number;
  count: number;
  columns: ValuesColumn[];
}

export interface CurrentSection {
  /** Valid time of the values, epoch seconds. */
  time: number;
  /** Seconds of the window before `time` that sums and means cover. */
  interval: number;
  columns: { name: string; sdk: SdkMeta; unit: OutputUnit; value: number }[];
}

export interface LocationForecast {
  latitude: number;
  longitude: number;
  /** Metres, from our DEM (as /elevation/point); NaN without one. */
  elevation: number;
  generationMs: number;
  utcOffsetSeconds: number;
  timezone: string;
  abbreviation: string;
  model: Model;
  hourly?: Section;
  daily?: Section;
  current?: CurrentSection;
}

/** Every step of the run in the slot table: the window is chosen here, not by the local day of the request. */
const EVERY_STEP = new Date(0);

function convert(c: Conversion, x: number): number {
  return x * c.factor + c.offset;
}

/** The value of an hourly variable at slot i (our units; NaN = null). */
function slotValue(w: PointWeather, v: HourlyVariable, i: number): number {
  const source = v.source;
  if (source === undefined) return NaN;
  if ("column" in source) return w.table.columns[source.column][i]!;
  const f = w.forecast;
  // Stored level temperatures: kelvin to °C, one decimal as the slot's temperatures.
  return roundTo(f.values[SLOT_VARIABLE_INDEX[source.level] * f.nSteps + w.table.slots[i]!.step]! - 273.15, 1);
}

function hourlySection(w: PointWeather, variables: readonly HourlyVariable[], q: ForecastQuery, startMs: number, hours: number, slotOfTime: Map<number, number>): Section {
  const columns = variables.map((v): ValuesColumn => {
    const c = conversionOf(v.quantity, q.units);
    const values = numbers(hours, NaN);
    if (v.source !== undefined) {
      for (let h = 0; h < hours; h++) {
        const i = slotOfTime.get(startMs + h * HOUR_MS);
        if (i !== undefined) values[h] = convert(c, slotValue(w, v, i));
      }
    }
    return { name: v.name, sdk: v.sdk, unit: c.unit, values };
  });
  return { start: startMs / 1000, interval: 3600, count: hours, columns };
}

function dailySection(w: PointWeather, variables: readonly DailyVariable[], q: ForecastQuery, lat: number, lon: number, startMs: number, days: number): Section {
  const { slots } = w.table;
  const meta = w.run.meta;
  const windowMs = (i: number): number => (meta.steps[slots[i]!.step]! - meta.intervalStart[slots[i]!.step]!) * HOUR_MS;
  // Per day, its slots [from, to), or undefined when the run does not cover the whole day.
  const ranges: ({ from: number; to: number } | undefined)[] = [];
  let i = 0;
  for (let d = 0; d < days; d++) {
    const dayStart = startMs + d * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    while (i < slots.length && slots[i]!.validMs < dayStart) i++;
    let to = i;
    while (to < slots.length && slots[to]!.validMs < dayEnd) to++;
    const covered = to > i && slots[i]!.validMs - windowMs(i) <= dayStart && slots[to - 1]!.validMs + windowMs(to - 1) >= dayEnd;
    ranges.push(covered ? { from: i, to } : undefined);
  }
  const columns = variables.map((v): ValuesColumn => {
    const values = numbers(days, NaN);
    const a = v.aggregate;
    if (v.quantity === "time" || v.quantity === "seconds") {
      for (let d = 0; d < days && a; d++) {
        const dayStart = startMs + d * DAY_MS;
        const sun = sunEvents(lat, lon, dayStart + DAY_MS / 2);
        if (a.kind === "daylight") values[d] = sun.kind === "polar-day" ? 86_400 : sun.kind === "polar-night" ? 0 : (sun.sunsetMs - sun.sunriseMs) / 1000;
        else if (sun.kind === "rise-and-set") {
          const at = a.kind === "sunrise" ? sun.sunriseMs : sun.sunsetMs;
          if (at >= dayStart && at < dayStart + DAY_MS) values[d] = Math.round(at / 60_000) * 60;
        }
      }
      const unit = v.quantity === "seconds" ? UNITS.seconds : q.timeformat === "unixtime" ? UNITS.unixtime : UNITS.iso8601;
      return v.quantity === "time" ? { name: v.name, sdk: v.sdk, unit, values, instants: true } : { name: v.name, sdk: v.sdk, unit, values };
    }
    const c = conversionOf(v.quantity, q.units);
    if (a !== undefined && a.kind !== "sunrise" && a.kind !== "sunset" && a.kind !== "daylight") {
      const aggregate = a;
      for (let d = 0; d < days; d++) {
        const r = ranges[d];
        if (r) values[d] = convert(c, aggregateDay(aggregate, w.table.columns, r.from, r.to, (s) => windowMs(s) / HOUR_MS));
      }
    }
    return { name: v.name, sdk: v.sdk, unit: c.unit, values };
  });
  return { start: startMs / 1000, interval: 86_400, count: days, columns };
}

function currentSection(w: PointWeather, variables: readonly HourlyVariable[], q: ForecastQuery, nowMs: number): CurrentSection {
  const { slots } = w.table;
  const meta = w.run.meta;
  // The step whose time span [valid time, next step) holds the instant.
  let at = -1;
  for (let i = 0; i < slots.length && slots[i]!.validMs <= nowMs; i++) at = i;
  const windowMs = at < 0 ? 0 : (meta.steps[slots[at]!.step]! - meta.intervalStart[slots[at]!.step]!) * HOUR_MS;
  const spanMs = at < 0 ? 0 : at + 1 < slots.length ? slots[at + 1]!.validMs - slots[at]!.validMs : Math.max(windowMs, HOUR_MS);
  if (at >= 0 && nowMs >= slots[at]!.validMs + spanMs) at = -1;
  const time = at < 0 ? Math.floor(nowMs / HOUR_MS) * 3600 : slots[at]!.validMs / 1000;
  const interval = at < 0 ? 3600 : (windowMs || spanMs) / 1000;
  return {
    time,
    interval,
    columns: variables.map((v) => {
      const c = conversionOf(v.quantity, q.units);
      return { name: v.name, sdk: v.sdk, unit: c.unit, value: at < 0 ? NaN : convert(c, slotValue(w, v, at)) };
    }),
  };
}

/** The answer for point `index` of the query at the request's instant. */
export function locationForecast(q: ForecastQuery, index: number, inputs: WeatherInputs, now: Date): LocationForecast {
  const started = performance.now();
  const { lat, lon } = q.points[index]!;
  const selection = selectModel(inputs.forecast, q.model);
  const height = elevationAt(inputs, lat, lon);
  const w = pointWeather(lat, lon, { ...inputs, forecast: selection.store }, EVERY_STEP, height);
  if (!w) throw openMeteoError("No data is available for this location");
  const zoneParam = q.timezones[index]!;
  const zone = zoneParam === "auto" ? w.zone : zoneParam;

  const meta = w.run.meta;
  const runMs = Date.parse(meta.runTime);
  const nowMs = now.getTime();
  const lastMs = runMs + (meta.steps[meta.steps.length - 1] ?? 0) * HOUR_MS;
  const todayOffset = zoneOffsetMs(zone, nowMs);
  const today = Math.floor((nowMs + todayOffset) / DAY_MS) * DAY_MS - todayOffset;
  const referenceMs = lastMs < today ? runMs + (meta.steps[0] ?? 0) * HOUR_MS : nowMs;
  const offset = zoneOffsetMs(zone, referenceMs);
  // Days start at local midnight, read at whole UTC hours (Open-Meteo aligns the offset to the hour).
  const aligned = Math.trunc(offset / HOUR_MS) * HOUR_MS;
  const dayStart = Math.floor((referenceMs + aligned) / DAY_MS) * DAY_MS - aligned;
  const startMs = dayStart - q.pastDays * DAY_MS;
  const days = q.pastDays + q.forecastDays;

  const slotOfTime = new Map<number, number>();
  w.table.slots.forEach((s, i) => slotOfTime.set(s.validMs, i));
  const answer: LocationForecast = {
    latitude: lat,
    longitude: lon,
    elevation: height ? elevationObject(height).value : NaN,
    generationMs: 0,
    utcOffsetSeconds: offset / 1000,
    timezone: zone,
    abbreviation: zoneAbbreviation(zone, referenceMs),
    model: selection.sdk,
  };
  if (q.hourly) answer.hourly = hourlySection(w, q.hourly, q, startMs, days * 24, slotOfTime);
  if (q.daily) answer.daily = dailySection(w, q.daily, q, lat, lon, startMs, days);
  if (q.current) answer.current = currentSection(w, q.current, q, nowMs);
  answer.generationMs = performance.now() - started;
  return answer;
}
