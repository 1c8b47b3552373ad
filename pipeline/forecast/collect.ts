/**
 * Collects the fields of a model's runs: for each input file, the wanted messages (from the
 * `.idx` inventory and byte ranges when there is one, else by scanning the whole file), decoded
 * and pasted on the domain grid, kept in a FieldStore keyed by run, variable and window.
 */
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import type { GribField } from "../grib/types.ts";
import { Progress } from "../common/progress.ts";
import type { FieldStore } from "./field-store.ts";
import type { GribCodec } from "./grib-codec.ts";
import type { GribSource } from "./grib-source.ts";
import { selectEntries, variableOfField } from "./match.ts";
import type { ModelDomain } from "./models/types.ts";
import { pasteValues, placeField, type Placement } from "./paste.ts";
import { rangesFor } from "./ranges.ts";

/** What was collected for one run. */
export interface CollectedRun {
  runTime: Date;
  /** Per variable index: fields by "start-end" hours (instant: "s-s"). */
  fields: Map<number, Map<string, string>>;
  sources: Set<string>;
}

export function fieldKey(runTime: Date, variable: number, start: number, end: number): string {
  return `${runTime.toISOString()}|${variable}|${start}-${end}`;
}

export interface CollectOptions {
  domain: ModelDomain;
  files: string[];
  source: GribSource;
  codec: GribCodec;
  store: FieldStore;
  logger: Logger;
  /** Lead times wanted (a subset of the domain's steps, ascending). */
  steps: readonly number[];
  /** Files that are not there are skipped (listed in the result) instead of failing the run. */
  skipMissing?: boolean;
  /** Only these runs are kept (by ISO time); undefined = all found. */
  wantRun?: (runTime: Date) => boolean;
}

/** A GRIB chunk (a whole file or a fetched range) with its fields. */
interface Chunk {
  bytes: Uint8Array;
  name: string;
  fields: GribField[];
  /** Where the chunk's octets lie on disk, when they do. */
  location: { path: string; offset: number } | undefined;
}

export interface CollectResult {
  runs: Map<string, CollectedRun>;
  messagesDecoded: number;
  missingFiles: string[];
  /** Fields of a wanted variable in a packing the decoders do not support (file, message, template). */
  unsupported: string[];
}

/**
 * Which end hours to take: the wanted steps, plus, for windowed fields, the nominal steps from the
 * one before the first wanted step to the last (a step's amount may be a difference of windows
 * ending there, e.g. (9, 12] = [6, 12] - [6, 9]).
 */
export function endHourFilter(domain: ModelDomain, steps: readonly number[]): (start: number | undefined, end: number | undefined) => boolean {
  const wanted = new Set(steps);
  const nominal = new Set(domain.steps);
  const k = domain.steps.indexOf(steps[0]!);
  const low = k > 0 ? domain.steps[k - 1]! : steps[0]!;
  const high = steps[steps.length - 1]!;
  return (start, end) => {
    if (end === undefined || start === undefined) return true;
    if (wanted.has(end)) return true;
    return end > start && nominal.has(end) && end >= low && end <= high;
  };
}

/** Reads the wanted chunks of one file: ranges from the inventory, or the whole file. */
async function chunksOf(file: string, o: CollectOptions, accept: (start: number | undefined, end: number | undefined) => boolean): Promise<Chunk[]> {
  const inventory = await o.source.inventory(file, o.domain.inventoryFormat);
  const name = o.source.locate(file);
  if (!inventory) {
    const bytes = await o.source.whole(file);
    return [{ bytes, name, fields: o.codec.scan(bytes, name), location: o.source.location?.(file, undefined) }];
  }
  const wanted = selectEntries(o.domain.variables, inventory).filter((e) => accept(e.startHour, e.endHour) && (!o.wantRun || o.wantRun(e.referenceTime)));
  const chunks: Chunk[] = [];
  for (const r of rangesFor(wanted)) {
    const bytes = await o.source.range(file, r);
    const label = `${name} bytes ${r.first}-${r.last ?? "end"}`;
    chunks.push({ bytes, name: label, fields: o.codec.scan(bytes, label), location: o.source.location?.(file, r) });
  }
  return chunks;
}

export async function collectFields(o: CollectOptions): Promise<CollectResult> {
  const runs = new Map<string, CollectedRun>();
  const placements = new Map<string, Placement>();
  const accept = endHourFilter(o.domain, o.steps);
  const cells = o.domain.grid.nLat * o.domain.grid.nLon;
  const progress = new Progress(o.logger, `collect ${o.domain.id}`, o.files.length, "files");
  let decoded = 0;
  let corrected = false;
  const seen = new Set<string>();
  const missingFiles: string[] = [];
  const unsupported: string[] = [];
  for (const file of o.files) {
    let chunks: Chunk[];
    try {
      chunks = await chunksOf(file, o, accept);
    } catch (err) {
      if (!(o.skipMissing && err instanceof MissingInputError)) throw err;
      missingFiles.push(file);
      progress.tick();
      continue;
    }
    for (const chunk of chunks) {
      for (const f of chunk.fields) {
        const v = variableOfField(o.domain.variables, f);
        if (v === undefined || !accept(f.startHour, f.endHour) || (o.wantRun && !o.wantRun(f.referenceTime))) continue;
        // A packing we do not decode (PNG, IEEE, spectral) loses this field, not the run: the
        // variable is absent where it has no other field, and the log names the template.
        if (f.unsupported) {
          unsupported.push(`${chunk.name} message ${f.index}: ${f.unsupported}`);
          continue;
        }
        const iso = f.referenceTime.toISOString();
        let run = runs.get(iso);
        if (!run) {
          run = { runTime: f.referenceTime, fields: new Map(), sources: new Set() };
          runs.set(iso, run);
        }
        const perVar = run.fields.get(v) ?? new Map<string, string>();
        run.fields.set(v, perVar);
        const window = `${f.startHour}-${f.endHour}`;
        const gridKey = JSON.stringify(f.grid);
        const key = fieldKey(f.referenceTime, v, f.startHour, f.endHour);
        // The same field twice (the 00Z run is in both 1 degree files): keep the first. The same
        // window on another grid is another sub-grid of the field (Alaska, both sides of 180 E).
        if (seen.has(`${key}|${gridKey}`)) continue;
        seen.add(`${key}|${gridKey}`);
        let placement = placements.get(gridKey);
        if (!placement) {
          placement = placeField(f, o.domain.grid, chunk.name);
          placements.set(gridKey, placement);
          if (placement.correctedIncrement && !corrected) {
            corrected = true;
            o.logger.warn("grid increment disagrees with first/last points; using the points", { file: chunk.name, message: f.index, stated: f.grid });
          }
        }
        // Into the vocabulary's unit (ECMWF: tp in m, cloud cover as a fraction).
        const factor = o.domain.variables[v]!.factor;
        // A large run's store keeps the field packed where it lies, decoded band by band later.
        if (chunk.location && o.store.putPacked?.(key, { bytes: chunk.bytes, field: f, name: chunk.name, location: chunk.location }, placement, factor)) {
          perVar.set(window, key);
          run.sources.add(file);
          decoded++;
          continue;
        }
        const values = o.codec.decode(chunk.bytes, f, chunk.name);
        if (factor !== undefined) for (let i = 0; i < values.length; i++) values[i] = values[i]! * factor;
        // Sub-grids of one field (Alaska: both sides of 180 degrees) are pasted into one array.
        const target = o.store.has(key) ? o.store.band(key, 0, cells).slice() : new Float32Array(cells).fill(NaN);
        pasteValues(placement, values, target);
        o.store.put(key, target);
        perVar.set(window, key);
        run.sources.add(file);
        decoded++;
      }
    }
    progress.tick();
  }
  progress.finish({ messagesDecoded: decoded, runs: runs.size });
  if (unsupported.length > 0) o.logger.warn("fields skipped: packing not supported", { fields: unsupported.length, first: unsupported[0] });
  if (o.files.length > 0 && missingFiles.length === o.files.length) {
    throw new MissingInputError(o.files.map((f) => o.source.locate(f)).slice(0, 3).join(", ") + (o.files.length > 3 ? ", ..." : ""), `GRIB files of ${o.domain.id}`);
  }
  return { runs, messagesDecoded: decoded, missingFiles, unsupported };
}
