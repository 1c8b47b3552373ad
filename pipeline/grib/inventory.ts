/**
 * Text and JSON views of scanned GRIB fields for `grib-inspect`: one inventory line per field in
 * wgrib2's spirit (`number:offset:d=YYYYMMDDHH:NAME:level:time:grid:packing`), and a JSON
 * document with one field's description and values.
 */
import type { GridCoordinates } from "./coordinates.ts";
import { dataTemplateName } from "./errors.ts";
import { formatG } from "./level-names.ts";
import type { GribField, GridDescription, StatisticalProcess } from "./types.ts";

const STAT_WORDS: Readonly<Record<StatisticalProcess, string>> = {
  instant: "",
  accumulation: "acc",
  average: "ave",
  maximum: "max",
  minimum: "min",
  other: "",
};

/** "d=2011100800" (minutes appended when not zero). */
export function referenceDate(t: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const base = `${t.getUTCFullYear()}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}`;
  return t.getUTCMinutes() ? `${base}${p(t.getUTCMinutes())}` : base;
}

/** "anl", "72 hour fcst", "66-72 hour acc fcst". */
export function timeDescription(f: GribField): string {
  if (!Number.isFinite(f.startHour)) return "unknown time";
  if (f.startHour === f.endHour && f.statistic === "instant") return f.startHour === 0 ? "anl" : `${formatG(f.startHour)} hour fcst`;
  const word = STAT_WORDS[f.statistic];
  return `${formatG(f.startHour)}-${formatG(f.endHour)} hour ${word ? word + " " : ""}fcst`;
}

export function gridDescription(g: GridDescription): string {
  if (g.kind === "latlon") return `latlon ${g.ni}x${g.nj} (${g.lat1},${g.lon1})-(${g.lat2},${g.lon2}) d=${g.di}x${g.dj}`;
  if (g.kind === "other") return `grid template ${g.template} (${g.ni} points)`;
  const p = g.params;
  return `${g.kind} ${g.ni}x${g.nj} la1=${p["la1"]} lo1=${p["lo1"]} lov=${p["lov"]} dx=${p["dx"]}m`;
}

export function packingDescription(f: GribField): string {
  return f.edition === 1 ? "grib1 simple packing" : `5.${f.packingTemplate} ${dataTemplateName(f.packingTemplate)}`;
}

export function inventoryLine(f: GribField): string {
  const parts = [
    String(f.index),
    String(f.messageOffset),
    `d=${referenceDate(f.referenceTime)}`,
    f.shortName,
    f.level,
    timeDescription(f),
    gridDescription(f.grid),
    packingDescription(f),
  ];
  if (f.ensemble) parts.push(`ens=${f.ensemble.perturbation}/${f.ensemble.members}`);
  if (f.unsupported) parts.push(`not decodable: ${f.unsupported}`);
  return parts.join(":");
}

/** Shortest decimal that reads back as the same float32 (NaN: null). */
function float32Text(v: number): string {
  if (Number.isNaN(v)) return "null";
  for (let p = 6; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(Number(v.toPrecision(9)));
}

/** The field's description as JSON (without the values). */
export function fieldDescription(f: GribField): Record<string, unknown> {
  const { sections: _sections, referenceTime, ...rest } = f;
  return { ...rest, referenceTime: referenceTime.toISOString(), time: timeDescription(f), packing: packingDescription(f) };
}

/**
 * The JSON document of `--message N --json`, produced in chunks so that a 1M-point field does
 * not need one giant string. Missing values are null.
 */
export function* fieldJsonChunks(f: GribField, values: Float32Array, coordinates?: GridCoordinates, chunkValues = 65536): Generator<string> {
  let missing = 0;
  for (const v of values) if (Number.isNaN(v)) missing++;
  const head = JSON.stringify({ ...fieldDescription(f), numberOfMissing: missing }, null, 1);
  yield head.slice(0, -2);
  if (coordinates) {
    // Micro-degrees: more digits than any GRIB grid definition carries.
    const micro = (x: number): string => String(Math.round(x * 1e6) / 1e6);
    yield* arrayChunks("latitudes", coordinates.lats, micro, chunkValues);
    yield* arrayChunks("longitudes", coordinates.lons, micro, chunkValues);
  }
  yield* arrayChunks("values", values, float32Text, chunkValues);
  yield "\n}\n";
}

function* arrayChunks(name: string, data: ArrayLike<number>, text: (v: number) => string, chunkValues: number): Generator<string> {
  yield `,\n "${name}": [`;
  for (let i = 0; i < data.length; i += chunkValues) {
    const part: string[] = [];
    const end = Math.min(data.length, i + chunkValues);
    for (let k = i; k < end; k++) part.push(text(data[k]!));
    yield (i === 0 ? "" : ",") + part.join(",");
  }
  yield "]";
}
