/**
 * The JSON answer of /v1/forecast in Open-Meteo's shape and member order (its JsonWriter.swift and
 * the documented example): one object per location, an array of them for several locations.
 * Values have the unit's fixed decimals; times are local labels (`timeformat=iso8601`) with the
 * answer's one UTC offset, or UTC epoch seconds (`unixtime`).
 */
import type { CurrentSection, LocationForecast, Section } from "./location-forecast.ts";
import { localLabel } from "./time-zone.ts";
import { formatValue } from "./units.ts";

type TimeFormat = "iso8601" | "unixtime";

function timeText(epochSeconds: number, offsetSeconds: number, format: TimeFormat, dateOnly: boolean): string {
  if (epochSeconds !== epochSeconds) return "null";
  return format === "unixtime" ? String(epochSeconds) : `"${localLabel(epochSeconds * 1000, offsetSeconds * 1000, dateOnly)}"`;
}

function units(out: string[], name: string, format: TimeFormat, entries: [string, string][]): void {
  out.push(`,"${name}_units":{"time":"${format}"`);
  for (const [k, v] of entries) out.push(`,${JSON.stringify(k)}:${JSON.stringify(v)}`);
  out.push("}");
}

/** Time axes as JSON, kept: the answers of one day share theirs (bounded; cleared when full). */
const axes = new Map<string, string>();

function timeAxis(s: Section, offset: number, format: TimeFormat): string {
  const key = `${s.start} ${s.count} ${s.interval} ${offset} ${format}`;
  let text = axes.get(key);
  if (text === undefined) {
    const dateOnly = s.interval >= 86_400;
    const items: string[] = [];
    for (let i = 0; i < s.count; i++) items.push(timeText(s.start + i * s.interval, offset, format, dateOnly));
    text = items.join(",");
    if (axes.size >= 256) axes.clear();
    axes.set(key, text);
  }
  return text;
}

function section(out: string[], name: string, s: Section, offset: number, format: TimeFormat): void {
  units(out, name, format, s.columns.map((c) => [c.name, c.unit.label]));
  out.push(`,"${name}":{"time":[`, timeAxis(s, offset, format), "]");
  for (const c of s.columns) {
    // Each column joined on its own: its values' strings die young, and the answer keeps one flat
    // string a column, not two array slots and a string a value (a 100-point answer has 10^5 values).
    const v = c.values;
    const decimals = c.unit.decimals;
    const items = new Array<string>(v.length);
    for (let i = 0; i < v.length; i++) items[i] = c.instants ? timeText(v[i]!, offset, format, false) : formatValue(v[i]!, decimals);
    out.push(`,${JSON.stringify(c.name)}:[`, items.join(","), "]");
  }
  out.push("}");
}

function current(out: string[], s: CurrentSection, offset: number, format: TimeFormat): void {
  out.push(`,"current_units":{"time":"${format}","interval":"seconds"`);
  for (const c of s.columns) out.push(`,${JSON.stringify(c.name)}:${JSON.stringify(c.unit.label)}`);
  out.push(`},"current":{"time":${timeText(s.time, offset, format, false)},"interval":${s.interval}`);
  for (const c of s.columns) out.push(`,${JSON.stringify(c.name)}:${formatValue(c.value, c.unit.decimals)}`);
  out.push("}");
}

function location(out: string[], f: LocationForecast, format: TimeFormat): void {
  out.push(
    `{"latitude":${f.latitude},"longitude":${f.longitude},"generationtime_ms":${Math.round(f.generationMs * 1000) / 1000},"utc_offset_seconds":${f.utcOffsetSeconds},"timezone":${JSON.stringify(f.timezone)},"timezone_abbreviation":${JSON.stringify(f.abbreviation)}`,
  );
  if (Number.isFinite(f.elevation)) out.push(`,"elevation":${f.elevation}`);
  if (f.current) current(out, f.current, f.utcOffsetSeconds, format);
  if (f.hourly) section(out, "hourly", f.hourly, f.utcOffsetSeconds, format);
  if (f.daily) section(out, "daily", f.daily, f.utcOffsetSeconds, format);
  out.push("}");
}

export function forecastJson(locations: readonly LocationForecast[], format: TimeFormat): string {
  const out: string[] = [];
  if (locations.length > 1) out.push("[");
  locations.forEach((f, i) => {
    if (i > 0) out.push(",");
    location(out, f, format);
  });
  if (locations.length > 1) out.push("]");
  return out.join("");
}
