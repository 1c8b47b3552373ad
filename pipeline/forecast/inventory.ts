/**
 * wgrib2-style inventories (`.idx` files, as NOMADS publishes beside every GRIB2 file):
 * `n[.m]:byteOffset:d=YYYYMMDDHH:NAME:level:time:` one line per field. Parsing gives each field's
 * byte range (up to the next message's offset); writing makes one for a file that has none,
 * from our own scan, so a local mirror can be read with range requests like NOMADS.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { GribField } from "../grib/types.ts";

export type InventoryStatistic = "instant" | "accumulation" | "average" | "maximum" | "minimum" | "other";

export interface InventoryEntry {
  /** "3" or "3.2" (second field of message 3). */
  id: string;
  /** 1-based line number in the .idx. */
  line: number;
  offset: number;
  /** Offset of the next message, or undefined when this message runs to the end of the file. */
  end: number | undefined;
  /** Reference time from `d=YYYYMMDDHH`. */
  referenceTime: Date;
  name: string;
  level: string;
  /** Forecast window in hours (start = end for instantaneous fields); undefined when unparsed. */
  startHour: number | undefined;
  endHour: number | undefined;
  statistic: InventoryStatistic;
}

const UNIT_HOURS: Readonly<Record<string, number>> = { min: 1 / 60, hour: 1, day: 24 };
const STAT: Readonly<Record<string, InventoryStatistic>> = { acc: "accumulation", ave: "average", max: "maximum", min: "minimum" };

/** Parses wgrib2's time field: "anl", "6 hour fcst", "0-6 hour acc fcst", "0-10 day acc fcst". */
export function parseTimeField(text: string): Pick<InventoryEntry, "startHour" | "endHour" | "statistic"> {
  if (text === "anl") return { startHour: 0, endHour: 0, statistic: "instant" };
  const point = /^(\d+) (min|hour|day) fcst$/.exec(text);
  if (point) {
    const h = Number(point[1]) * UNIT_HOURS[point[2]!]!;
    return { startHour: h, endHour: h, statistic: "instant" };
  }
  const window = /^(\d+)-(\d+) (min|hour|day) (?:(acc|ave|max|min) )?fcst$/.exec(text);
  if (window) {
    const u = UNIT_HOURS[window[3]!]!;
    return { startHour: Number(window[1]) * u, endHour: Number(window[2]) * u, statistic: window[4] ? STAT[window[4]]! : "other" };
  }
  return { startHour: undefined, endHour: undefined, statistic: "other" };
}

/**
 * `d=YYYYMMDDHH` (wgrib2), `D=YYYYMMDDHHmmss` (wgrib2 -Match_inv), or `d=YYMMDDHH` (wgrib's GRIB1
 * inventories; years 50-99 are 19xx).
 */
function parseDate(text: string, file: string, line: number): Date {
  const m = /^d=(\d{4}|\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text) ?? /^D=(\d{4})(\d{2})(\d{2})(\d{2})0000$/.exec(text);
  const [month, day, hour] = m ? [Number(m[2]), Number(m[3]), Number(m[4])] : [0, 0, 0];
  if (!m || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23) {
    throw new DataFormatError({ file, line, field: "date" }, "d=YYYYMMDDHH", JSON.stringify(text));
  }
  const y = Number(m[1]);
  const year = m[1]!.length === 4 ? y : y < 50 ? 2000 + y : 1900 + y;
  return new Date(Date.UTC(year, month - 1, day, hour));
}

/** Parses an .idx text. `file` names it in errors. */
export function parseInventory(text: string, file: string): InventoryEntry[] {
  const entries: InventoryEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (const [k, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const line = k + 1;
    const parts = raw.split(":");
    if (parts.length < 6) throw new DataFormatError({ file, line }, "at least 6 ':'-separated fields (n:offset:d=date:NAME:level:time)", JSON.stringify(raw.slice(0, 80)));
    const [id, offsetText, dateText, name, level, time] = parts as [string, string, string, string, string, string];
    if (!/^\d+(\.\d+)?$/.test(id)) throw new DataFormatError({ file, line, field: "number" }, "a message number like 12 or 12.1", JSON.stringify(id));
    if (!/^\d+$/.test(offsetText)) throw new DataFormatError({ file, line, field: "offset" }, "a byte offset", JSON.stringify(offsetText));
    const offset = Number(offsetText);
    const previous = entries[entries.length - 1];
    if (previous && offset < previous.offset) throw new DataFormatError({ file, line, field: "offset" }, `an offset of at least ${previous.offset}`, String(offset));
    entries.push({ id, line, offset, end: undefined, referenceTime: parseDate(dateText, file, line), name, level, ...parseTimeField(time) });
  }
  // A message ends where the next one (a different offset) starts; fields of one message share it.
  let nextOffset: number | undefined;
  for (let k = entries.length - 1; k >= 0; k--) {
    const e = entries[k]!;
    e.end = nextOffset;
    if (k > 0 && entries[k - 1]!.offset !== e.offset) nextOffset = e.offset;
  }
  return entries;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

function timeField(f: GribField): string {
  const fmt = (h: number): string => String(Number(h.toFixed(4)));
  if (f.startHour === f.endHour) return f.endHour === 0 && f.statistic === "instant" ? "anl" : `${fmt(f.endHour)} hour fcst`;
  const stat = { accumulation: "acc ", average: "ave ", maximum: "max ", minimum: "min " } as Record<string, string>;
  return `${fmt(f.startHour)}-${fmt(f.endHour)} hour ${stat[f.statistic] ?? ""}fcst`;
}

/** Writes a wgrib2-style inventory of scanned fields (fields of one message numbered n.1, n.2, ...). */
export function formatInventory(fields: readonly GribField[]): string {
  const perMessage = new Map<number, number>();
  for (const f of fields) perMessage.set(f.messageOffset, (perMessage.get(f.messageOffset) ?? 0) + 1);
  const lines: string[] = [];
  let message = 0;
  let lastOffset = -1;
  let sub = 0;
  for (const f of fields) {
    if (f.messageOffset !== lastOffset) {
      message++;
      sub = 0;
      lastOffset = f.messageOffset;
    }
    sub++;
    const id = perMessage.get(f.messageOffset)! > 1 ? `${message}.${sub}` : String(message);
    const t = f.referenceTime;
    const d = `d=${t.getUTCFullYear()}${two(t.getUTCMonth() + 1)}${two(t.getUTCDate())}${two(t.getUTCHours())}`;
    lines.push(`${id}:${f.messageOffset}:${d}:${f.shortName}:${f.level}:${timeField(f)}:`);
  }
  return lines.join("\n") + "\n";
}
