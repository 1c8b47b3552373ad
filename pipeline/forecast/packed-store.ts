/**
 * A FieldStore for runs too large for memory that keeps each field packed where its octets
 * already lie (the download cache, or the GRIB file of a local source) instead of a decoded copy:
 * a GFS 0.25° run is 1.8 GB of GRIB but 19.6 GB of float32. Each field's group descriptors are
 * indexed when it is collected (pipeline/grib/packed-range.ts, with checkpoints at the edges of
 * the bands the run is assembled in), and each band is decoded from the file when the assembly
 * asks for it. The assembly goes south to north and GFS scans north to south, so a field's first
 * band decodes it through once to record the differencing state at every checkpoint; each later
 * band is one band's work.
 * Fields that cannot be decoded by range (a bitmap, JPEG 2000, CCSDS, GRIB1) go to `fallback`.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { ForecastGrid } from "../../datasets/forecast/types.ts";
import { decodePackedRange, indexPacked, type PackedBytes, type PackedIndex } from "../grib/packed-range.ts";
import type { FieldStore, PackedField } from "./field-store.ts";
import type { Placement } from "./paste.ts";

/** Open files kept at most (a run reads each cache file once per band). */
const OPEN_FILES = 256;

/** Positioned reads of many files through a bounded set of open descriptors. */
class FileReader {
  private readonly fds = new Map<string, number>();

  read(path: string, position: number, length: number): Uint8Array {
    let fd = this.fds.get(path);
    if (fd === undefined) {
      if (this.fds.size >= OPEN_FILES) {
        const [oldest, oldFd] = this.fds.entries().next().value as [string, number];
        closeSync(oldFd);
        this.fds.delete(oldest);
      }
      fd = openSync(path, "r");
    } else this.fds.delete(path);
    this.fds.set(path, fd);
    // 8 zero octets after the data: the bit unpacker reads whole 32-bit words.
    const out = Buffer.allocUnsafe(length + 8);
    out.fill(0, length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, out, done, length - done, position + done);
      if (n === 0) throw new Error(`${path}: ${length} octets expected at offset ${position}, the file ends after ${done}`);
      done += n;
    }
    return out;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}

/** One message's part of a field: its index, where its section 7 data starts, how it lands on the grid. */
interface Part {
  index: PackedIndex;
  bytes: PackedBytes;
  placement: Placement;
  /** Message points per domain row: [first, end) in scan order, first = end when none. */
  rows: { first: Uint32Array; end: Uint32Array };
  factor: number | undefined;
}

/** Scan range of the message points that fall in each domain row. */
function rowRanges(placement: Placement, grid: ForecastGrid): Part["rows"] {
  const first = new Uint32Array(grid.nLat).fill(0xffffffff);
  const end = new Uint32Array(grid.nLat);
  const { cells } = placement;
  for (let s = 0; s < cells.length; s++) {
    const c = cells[s]!;
    if (c < 0) continue;
    const row = Math.floor(c / grid.nLon);
    if (s < first[row]!) first[row] = s;
    if (s + 1 > end[row]!) end[row] = s + 1;
  }
  for (let r = 0; r < grid.nLat; r++) if (first[r] === 0xffffffff) first[r] = end[r] = 0;
  return { first, end };
}

/** The scan range of the message points in domain rows [row0, row1). */
function scanRange(rows: Part["rows"], row0: number, row1: number): [number, number] {
  let a = Infinity;
  let b = 0;
  for (let r = row0; r < row1; r++) {
    if (rows.first[r] === rows.end[r]) continue;
    a = Math.min(a, rows.first[r]!);
    b = Math.max(b, rows.end[r]!);
  }
  return a < b ? [a, b] : [0, 0];
}

export type PackedStoreOptions = {
  grid: ForecastGrid;
  /** Rows of the bands the run is assembled in (checkpoints go at their edges). */
  bandRows: number;
  fallback: FieldStore;
};

export function packedFieldStore(o: PackedStoreOptions): FieldStore {
  const files = new FileReader();
  const fields = new Map<string, Part[]>();
  const rangesByPlacement = new Map<Placement, Part["rows"]>();
  const { grid, bandRows, fallback } = o;
  let scratch = new Float32Array(0);

  const decode = (parts: readonly Part[], first: number, count: number): Float32Array => {
    const out = new Float32Array(count).fill(NaN);
    const row0 = Math.floor(first / grid.nLon);
    const row1 = Math.ceil((first + count) / grid.nLon);
    for (const part of parts) {
      const [a, b] = scanRange(part.rows, row0, row1);
      if (a >= b) continue;
      if (scratch.length < b - a) scratch = new Float32Array(b - a);
      decodePackedRange(part.index, part.bytes, a, b, scratch);
      const { cells } = part.placement;
      const factor = part.factor;
      for (let s = a; s < b; s++) {
        const c = cells[s]! - first;
        if (c < 0 || c >= count) continue;
        // As collect.ts does: the decoded float32 times the factor, stored as float32.
        out[c] = factor === undefined ? scratch[s - a]! : Math.fround(scratch[s - a]!) * factor;
      }
    }
    return out;
  };

  return {
    putPacked(key: string, f: PackedField, placement: Placement, factor: number | undefined): boolean {
      const existing = fields.get(key);
      if (!existing && fallback.has(key)) return false;
      let rows = rangesByPlacement.get(placement);
      if (!rows) {
        rows = rowRanges(placement, grid);
        rangesByPlacement.set(placement, rows);
      }
      const breakpoints: number[] = [];
      for (let r = 0; r < grid.nLat; r += bandRows) breakpoints.push(...scanRange(rows, r, Math.min(grid.nLat, r + bandRows)));
      const index = indexPacked(f.bytes, f.field, f.name, breakpoints);
      if (!index) return false;
      const start = f.location.offset + f.field.sections.data + 5;
      const path = f.location.path;
      const part: Part = { index, bytes: { read: (offset, length) => files.read(path, start + offset, length) }, placement, rows, factor };
      fields.set(key, [...(existing ?? []), part]);
      return true;
    },
    put(key, values) {
      fields.delete(key);
      fallback.put(key, values);
    },
    has: (key) => fields.has(key) || fallback.has(key),
    band(key, first, count) {
      const parts = fields.get(key);
      return parts ? decode(parts, first, count) : fallback.band(key, first, count);
    },
    close() {
      files.close();
      fields.clear();
      fallback.close();
    },
  };
}
