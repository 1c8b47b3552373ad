/**
 * Reads a run file (FORMAT.md) where it lies, through a byte source: the time series of one cell,
 * or of the cells around a point with one read per tile row they touch (the four cells around a
 * point: at most two; a third and fourth only where the cells straddle the 0/360 seam of a global
 * grid). The server opens every run as a file source, so the page cache holds the one copy that
 * every worker shares.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { crc32 } from "node:zlib";
import { HEADER_BYTES, readEnvelopeHeader, type BuildMetadata } from "../artifact/envelope.ts";
import { DATASETS } from "../catalog.ts";
import { DataFormatError, MissingInputError } from "../common/errors.ts";
import { fileSource, readBytesInto, type ByteSource } from "../common/byte-source.ts";
import { neighbours, type NeighbourCell } from "./grid.ts";
import { decodeSeries, fillRange } from "./series-codec.ts";
import { tileExtent, tileLayout, tileTableBytes, type TileLayout } from "./tiles.ts";
import type { RunMeta } from "./types.ts";

export const RUN_KIND = "forecast-run";

/** Runs up to this payload size have their CRC-32 checked at open (milliseconds for the embedded default's). */
export const CHECKSUM_AT_OPEN_MAX_BYTES = 512 * 2 ** 20;
/** Bytes checked between two turns of the event loop, and per read. */
const CRC_CHUNK = 2 ** 20;
const CRC_READ_BYTES = 64 * 1024;

/** A cell of the grid: column i, row j. */
export interface GridCell {
  i: number;
  j: number;
}

/** The series of the cells around a point: `values[v][c]` is variable v (as requested), cell c. */
export interface PointSeries {
  model: string;
  runTime: string;
  steps: number[];
  intervalStart: number[];
  cells: NeighbourCell[];
  variables: string[];
  values: Float32Array[][];
}

/** Tile records read for a group of cells (ForecastRun.tilesOf), by tile index: a view and the record's offset in it. */
export type TileRecords = Map<number, { view: DataView; base: number }>;

export class ForecastRun {
  readonly layout: TileLayout;
  private readonly varIndex: Map<string, number>;
  /** Payload offsets of the tile records (count + 1 entries). */
  private readonly tileOffsets: Float64Array;
  /** Reads of the payload made since the run was opened, the tile table's included (tests and benches count the hot path's). */
  reads = 0;
  private readonly indexesOf = new WeakMap<readonly string[], Int32Array>();
  /**
   * Where tilesOf reads the tile records (grown to the largest group read): no buffer per read. So
   * the records tilesOf gives are valid until the next tilesOf of this run; the server reads and
   * decodes a point's cells in one synchronous call.
   */
  private scratch = new Uint8Array(0);
  private scratchView = viewOf(this.scratch);

  private constructor(
    readonly meta: RunMeta,
    readonly metadata: BuildMetadata,
    private readonly source: ByteSource,
    readonly file: string,
  ) {
    this.layout = tileLayout(meta.grid, meta.tile);
    this.varIndex = new Map(meta.variables.map((v, k) => [v.name, k]));
    const tableBytes = tileTableBytes(this.layout.count);
    const payloadBytes = metadata.payloadBytes;
    const table = payloadBytes >= tableBytes ? this.read(payloadBytes - tableBytes, tableBytes) : new Uint8Array(0);
    const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const countAt = tableBytes - 8;
    if (table.byteLength < tableBytes || view.getUint32(countAt, true) !== this.layout.count) {
      throw new DataFormatError(
        { file, offset: Math.max(0, payloadBytes - tableBytes), field: "tileCount" },
        `a tile table of ${this.layout.count} tiles for the grid in the metadata`,
        table.byteLength < tableBytes ? `a payload of ${payloadBytes} bytes` : String(view.getUint32(countAt, true)),
      );
    }
    this.tileOffsets = new Float64Array(this.layout.count + 1);
    for (let t = 0; t <= this.layout.count; t++) this.tileOffsets[t] = view.getFloat64(8 * t, true);
    if (this.tileOffsets[this.layout.count] !== payloadBytes - tableBytes) {
      throw new DataFormatError({ file, field: "tileOffsets" }, `tile records ending at ${payloadBytes - tableBytes}`, String(this.tileOffsets[this.layout.count]));
    }
  }

  /**
   * Opens a run file where it lies: reads and checks the envelope header (magic, version, kind,
   * metadata, payload length), the tile table and, for a payload of at most
   * CHECKSUM_AT_OPEN_MAX_BYTES, its CRC-32 (streamed a MiB at a time, nothing kept), and keeps the
   * descriptor for positioned reads. A larger run relies on the release check (SHA-256 of every
   * file when the release is first seen): reading gigabytes again at every start would delay ready.
   */
  static async open(file: string): Promise<ForecastRun> {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      throw new MissingInputError(file, "forecast run file");
    }
    try {
      const run = ForecastRun.over(fileSource(fd, 0), fstatSync(fd).size, file);
      if (run.metadata.payloadBytes <= CHECKSUM_AT_OPEN_MAX_BYTES) await run.checkPayloadCrc();
      return run;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Reads the payload a MiB at a time and compares its CRC-32 with the header's, a turn of the event loop between reads. */
  private async checkPayloadCrc(): Promise<void> {
    const total = this.metadata.payloadBytes;
    let crc = 0;
    // One small scratch buffer for the whole check: a fresh MiB per read would leave glibc's heap
    // holding freed megabytes in every worker (buffers under 128 KiB never raise its mmap threshold).
    const scratch = Buffer.allocUnsafe(CRC_READ_BYTES);
    for (let at = 0; at < total; ) {
      const turnEnd = Math.min(total, at + CRC_CHUNK);
      for (; at < turnEnd; at += CRC_READ_BYTES) {
        const length = Math.min(CRC_READ_BYTES, turnEnd - at);
        const got = readBytesInto(this.source, at, length, scratch);
        crc = crc32(scratch.subarray(0, got), crc);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (crc >>> 0 !== this.metadata.payloadCrc32) {
      throw new DataFormatError({ file: this.file, field: "payloadCrc32" }, `payload CRC-32 ${this.metadata.payloadCrc32}`, `${crc >>> 0} (corrupted file)`);
    }
  }

  /** The same over any source of the run file's `size` bytes (a memory source: benches, tests). */
  static over(source: ByteSource, size: number, file: string): ForecastRun {
    const spec = DATASETS.forecast;
    // The fixed header gives the metadata's length (a few KiB of JSON: steps, variables); then
    // exactly the header and metadata are read.
    const head = source.read(0, Math.min(size, HEADER_BYTES));
    const metaLength = head.byteLength === HEADER_BYTES ? new DataView(head.buffer, head.byteOffset, HEADER_BYTES).getUint32(12, true) : 0;
    const { metadata, payloadOffset } = readEnvelopeHeader(source.read(0, Math.min(size, HEADER_BYTES + metaLength)), { magic: spec.magic, formatVersion: spec.formatVersion, file });
    if (size - payloadOffset !== metadata.payloadBytes) {
      throw new DataFormatError({ file, offset: payloadOffset }, `a payload of ${metadata.payloadBytes} bytes`, `${size - payloadOffset} bytes`);
    }
    const payload: ByteSource = {
      read: (offset, length) => source.read(payloadOffset + offset, length),
      ...(source.readInto ? { readInto: (offset: number, length: number, target: Uint8Array) => source.readInto!(payloadOffset + offset, length, target) } : {}),
      close: () => source.close?.(),
    };
    return new ForecastRun(checkMeta(metadata, file), metadata, payload, file);
  }

  close(): void {
    this.source.close?.();
  }

  hasVariable(name: string): boolean {
    return this.varIndex.has(name);
  }

  /** The series of one cell, or undefined for an unknown variable or a cell outside the grid. */
  cellSeries(i: number, j: number, variable: string): Float32Array | undefined {
    const v = this.varIndex.get(variable);
    const { grid } = this.meta;
    if (v === undefined || i < 0 || j < 0 || i >= grid.nLon || j >= grid.nLat) return undefined;
    const out = new Float32Array(this.meta.steps.length);
    this.cellSeriesInto(i, j, v, out, 0);
    return out;
  }

  /**
   * Decodes the series of variable index `v` (storage order, see `variableIndexes`) at cell (i, j),
   * which must lie in the grid, into `out[outOffset ..]` (one value per step).
   */
  cellSeriesInto(i: number, j: number, v: number, out: Float32Array, outOffset: number): void {
    const t = this.tileOf(i, j);
    // Three small reads (the variable's block entry, the cell's offset, the blob) rather than the
    // whole tile record (~76 KB for a 4x4 tile of 22 variables x 209 steps). For one cell (the
    // pipeline's checks); the server reads groups of cells with seriesAround, a read per tile run.
    const start = this.tileOffsets[t]!;
    const end = this.tileOffsets[t + 1]!;
    const cell = this.cellOffsetsAt(start, i, j);
    const entry = viewOf(this.read(start + 8 * v, 8));
    const cellOffset = viewOf(this.read(cell.at + v * cell.stride, 2)).getUint16(0, true);
    const blobStart = start + entry.getUint32(0, true) + cellOffset;
    const nSteps = this.meta.steps.length;
    const blob = this.read(blobStart, Math.min(maxSeriesBytes(nSteps), end - blobStart));
    const stored = this.meta.variables[v]!;
    decodeSeries(viewOf(blob), 0, nSteps, stored.scale, stored.offset, entry.getInt32(4, true), out, outOffset);
  }

  /**
   * The storage index of each name (-1 for a variable the run lacks), computed once per names
   * array: callers pass a constant list.
   */
  variableIndexes(names: readonly string[]): Int32Array {
    let indexes = this.indexesOf.get(names);
    if (indexes === undefined) {
      indexes = Int32Array.from(names, (name) => this.varIndex.get(name) ?? -1);
      this.indexesOf.set(names, indexes);
    }
    return indexes;
  }

  /**
   * The series of the four cells around (lat, lon) for the given variables (default: all stored),
   * or undefined outside the grid. Variables the run lacks are returned as all-NaN series.
   */
  pointSeries(lat: number, lon: number, variables: readonly string[] = this.meta.variables.map((v) => v.name)): PointSeries | undefined {
    const cells = neighbours(this.meta.grid, lat, lon);
    if (!cells) return undefined;
    const nSteps = this.meta.steps.length;
    const all = new Float32Array(variables.length * cells.length * nSteps);
    this.seriesAround(cells, this.variableIndexes(variables), all);
    const values: Float32Array[][] = [];
    for (let k = 0; k < variables.length; k++) {
      const perCell: Float32Array[] = [];
      for (let c = 0; c < cells.length; c++) perCell.push(all.subarray((k * cells.length + c) * nSteps, (k * cells.length + c + 1) * nSteps));
      values.push(perCell);
    }
    const { model, runTime, steps, intervalStart } = this.meta;
    return { model, runTime, steps, intervalStart, cells, variables: [...variables], values };
  }

  /**
   * Decodes, for each variable index of `variables` (-1: all NaN) and each of `cells` (in the
   * grid), the cell's series into `out`, laid out [variable][cell][step]. `tiles`: the records
   * holding the cells (tilesOf), read once for several calls; by default read here.
   */
  seriesAround(cells: readonly GridCell[], variables: Int32Array, out: Float32Array, tiles: TileRecords = this.tilesOf(cells)): void {
    const nSteps = this.meta.steps.length;
    const nCells = cells.length;
    for (let c = 0; c < nCells; c++) {
      const cell = cells[c]!;
      const record = tiles.get(this.tileOf(cell.i, cell.j));
      if (record === undefined) throw new RangeError(`cell (${cell.i}, ${cell.j}): expected among the cells whose tiles were read, got another`);
      // Where the cell's offsets start in its tile's head, computed once for all variables.
      const at = this.cellOffsetsAt(record.base, cell.i, cell.j);
      for (let k = 0; k < variables.length; k++) {
        const v = variables[k]!;
        const to = (k * nCells + c) * nSteps;
        if (v < 0) fillRange(out, to, nSteps, NaN);
        else this.decodeCell(record.view, record.base, at, v, out, to);
      }
    }
  }

  /**
   * The tile records of `cells` read from the source: per tile, a view and the record's offset in
   * it, valid until the next call (they lie in the run's scratch buffer). One read per run of
   * adjacent tiles in a tile row (the records of a tile row are contiguous; the cells around a
   * point touch at most two, a third and fourth only where they straddle the 0/360 seam of a
   * global grid).
   */
  tilesOf(cells: readonly GridCell[]): TileRecords {
    const tiles = [...new Set(cells.map((cell) => this.tileOf(cell.i, cell.j)))].sort((a, b) => a - b);
    const tilesLon = this.layout.tilesLon;
    // Each run of adjacent tiles in a tile row: [first, last] pairs.
    const runs: number[] = [];
    let bytes = 0;
    for (let k = 0; k < tiles.length; ) {
      const first = tiles[k]!;
      let last = first;
      // Extend while the next tile follows in the same tile row.
      while (k + 1 < tiles.length && tiles[k + 1] === last + 1 && Math.floor(tiles[k + 1]! / tilesLon) === Math.floor(first / tilesLon)) last = tiles[++k]!;
      k++;
      runs.push(first, last);
      bytes += this.tileOffsets[last + 1]! - this.tileOffsets[first]!;
    }
    // The runs one after another in the run's scratch, seen through one view.
    if (this.scratch.byteLength < bytes) {
      this.scratch = new Uint8Array(Math.max(bytes, 2 * this.scratch.byteLength));
      this.scratchView = viewOf(this.scratch);
    }
    const records: TileRecords = new Map();
    let at = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const start = this.tileOffsets[runs[r]!]!;
      const length = this.tileOffsets[runs[r + 1]! + 1]! - start;
      this.reads++;
      const target = at === 0 ? this.scratch : this.scratch.subarray(at);
      const got = readBytesInto(this.source, start, length, target);
      if (got !== length) throw new DataFormatError({ file: this.file, offset: start, field: "tile record" }, `${length} bytes`, `${got} (truncated file)`);
      for (let t = runs[r]!; t <= runs[r + 1]!; t++) records.set(t, { view: this.scratchView, base: at + this.tileOffsets[t]! - start });
      at += length;
    }
    return records;
  }

  private read(offset: number, length: number): Uint8Array {
    this.reads++;
    return this.source.read(offset, length);
  }

  private tileOf(i: number, j: number): number {
    const { tile } = this.meta;
    return Math.floor(j / tile.lat) * this.layout.tilesLon + Math.floor(i / tile.lon);
  }

  /**
   * Where the cell's uint16 blob offset of variable 0 lies in its tile record's head at `base`, and
   * the step to the next variable's (FORMAT.md: the offsets follow the 8-byte variable entries,
   * variable-major, one per cell of the tile, row-major within it; edge tiles are smaller).
   */
  private cellOffsetsAt(base: number, i: number, j: number): { at: number; stride: number } {
    const { tile, grid } = this.meta;
    const { rows, cols } = tileExtent(grid, tile, Math.floor(j / tile.lat), Math.floor(i / tile.lon));
    const cellInTile = (j % tile.lat) * cols + (i % tile.lon);
    return { at: base + 8 * this.meta.variables.length + 2 * cellInTile, stride: 2 * rows * cols };
  }

  /** Decodes variable v of the cell whose offsets start at `cell` in the tile record at `base`. */
  private decodeCell(view: DataView, base: number, cell: { at: number; stride: number }, v: number, out: Float32Array, outOffset: number): void {
    const blob = base + view.getUint32(base + 8 * v, true) + view.getUint16(cell.at + v * cell.stride, true);
    const variable = this.meta.variables[v]!;
    decodeSeries(view, blob, this.meta.steps.length, variable.scale, variable.offset, view.getInt32(base + 8 * v + 4, true), out, outOffset);
  }
}

function checkMeta(metadata: BuildMetadata, file: string): RunMeta {
  if (metadata.kind !== RUN_KIND) throw new DataFormatError({ file, field: "kind" }, RUN_KIND, JSON.stringify(metadata.kind));
  const meta = metadata.extra as unknown as RunMeta;
  const ok =
    typeof meta?.model === "string" &&
    Array.isArray(meta.steps) &&
    Array.isArray(meta.intervalStart) &&
    meta.intervalStart.length === meta.steps.length &&
    Array.isArray(meta.variables) &&
    meta.grid !== undefined &&
    meta.grid.nLat > 0 &&
    meta.grid.nLon > 0 &&
    meta.tile?.lat > 0 &&
    meta.tile?.lon > 0;
  if (!ok) throw new DataFormatError({ file, field: "extra" }, "run metadata with model, steps, intervalStart, grid, tile and variables", JSON.stringify(metadata.extra).slice(0, 200));
  return meta;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Most bytes a series blob of `n` steps takes (FORMAT.md "Series blob": header, a varint of at
 * most 5 bytes, the missing bitmap, values of at most 32 bits), plus the 4 bytes past its end that
 * the unpacking reads a word at a time may touch.
 */
function maxSeriesBytes(n: number): number {
  return 1 + 5 + Math.ceil(n / 8) + 4 * n + 4;
}
