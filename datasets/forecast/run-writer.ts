/**
 * Writes the payload of a run file (FORMAT.md): `add()` one band of tile rows at a time, south to
 * north, then `finish()`. Each band holds, per variable, the series of every cell of the band's
 * rows (time-major per cell: `values[(row * nLon + col) * nSteps + step]`).
 *
 * Tile records are gathered in 4 MB blocks kept in memory, or written to a spill file for runs
 * too large to hold (a GFS 0.25 degree run is several GB): at `spillOffset` of the run file
 * itself, so that the header is written in front of the payload without copying it; the tile
 * table goes last, so the payload's CRC-32 is computed as the blocks are produced.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { crc32 } from "node:zlib";
import { ByteSink, SeriesEncoder, referenceOf } from "./series-codec.ts";
import { tileExtent, tileHeadBytes, tileLayout, tileTableBytes, type TileLayout } from "./tiles.ts";
import type { RunMeta } from "./types.ts";

/** Tile records are gathered into blocks of this size before they are written. */
const BLOCK_BYTES = 4 * 2 ** 20;

/** A finished payload: the spill file's bytes (if any, from `offset`) followed by `chunks`. */
export interface RunPayload {
  spill?: { path: string; bytes: number; offset: number };
  chunks: Uint8Array[];
  bytes: number;
  crc32: number;
}

export interface RunWriterOptions {
  /** Append tile records to this file instead of keeping them in memory. */
  spillPath?: string;
  /** Where in the spill file the records start (room left for the run file's header); default 0. */
  spillOffset?: number;
}

export class RunWriter {
  private readonly layout: TileLayout;
  private readonly records: Uint8Array[] = [];
  private readonly offsets: Float64Array;
  private readonly encoder = new SeriesEncoder();
  private readonly sink = new ByteSink();
  private block = new Uint8Array(0);
  private blockUsed = 0;
  private nextTileRow = 0;
  private position: number;

  private crc = 0;
  private spillFd: number | undefined;
  private spillBytes = 0;

  constructor(
    private readonly meta: RunMeta,
    private readonly options: RunWriterOptions = {},
  ) {
    this.layout = tileLayout(meta.grid, meta.tile);
    this.offsets = new Float64Array(this.layout.count + 1);
    this.position = 0;
    if (options.spillPath) this.spillFd = openSync(options.spillPath, "w");
  }

  /** Rows covered by the next band (`add` expects exactly these). */
  nextBand(): { firstRow: number; rows: number } | undefined {
    if (this.nextTileRow >= this.layout.tilesLat) return undefined;
    const firstRow = this.nextTileRow * this.meta.tile.lat;
    return { firstRow, rows: Math.min(this.meta.tile.lat, this.meta.grid.nLat - firstRow) };
  }

  /** Adds the next band: one Float32Array per variable, in `meta.variables` order. */
  add(values: readonly Float32Array[]): void {
    const band = this.nextBand();
    if (!band) throw new Error("RunWriter.add: all bands already added");
    const { grid, tile, variables, steps } = this.meta;
    const nSteps = steps.length;
    if (values.length !== variables.length) throw new Error(`RunWriter.add: expected ${variables.length} variables, got ${values.length}`);
    for (const [k, arr] of values.entries()) {
      if (arr.length !== band.rows * grid.nLon * nSteps) {
        throw new Error(`RunWriter.add: variable ${variables[k]!.name}: expected ${band.rows * grid.nLon * nSteps} values, got ${arr.length}`);
      }
    }
    const sink = this.sink;
    const nVars = variables.length;
    for (let tc = 0; tc < this.layout.tilesLon; tc++) {
      const { rows, cols } = tileExtent(grid, tile, this.nextTileRow, tc);
      const cells = rows * cols;
      sink.length = 0;
      const headBytes = tileHeadBytes(nVars, cells);
      sink.zeros(headBytes);
      // Head entries are collected apart: the sink's buffer may move while blobs are added.
      const blocks = new Uint32Array(nVars);
      const references = new Int32Array(nVars);
      const cellOffsets = new Uint16Array(nVars * cells);
      for (const [v, variable] of variables.entries()) {
        const arr = values[v]!;
        const first = tc * tile.lon;
        references[v] = referenceOf(arr.subarray(first * nSteps, (first + 1) * nSteps), variable.scale, variable.offset);
        blocks[v] = sink.length;
        let k = 0;
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            const cellInBand = r * grid.nLon + tc * tile.lon + c;
            const rel = sink.length - blocks[v]!;
            if (rel > 0xffff) throw new Error(`RunWriter: variable ${variable.name}: a tile block over 64 KiB (${nSteps} steps); use smaller tiles`);
            cellOffsets[v * cells + k++] = rel;
            this.encoder.encode(sink, arr.subarray(cellInBand * nSteps, (cellInBand + 1) * nSteps), variable.scale, variable.offset, variable.name, references[v]!);
          }
        }
      }
      // 4 zero bytes let the decoder read whole words past a blob's end; then align to 4.
      sink.zeros(4 + ((4 - (sink.length % 4)) % 4));
      const view = new DataView(sink.bytes.buffer);
      for (let v = 0; v < nVars; v++) {
        view.setUint32(8 * v, blocks[v]!, true);
        view.setInt32(8 * v + 4, references[v]!, true);
      }
      for (let k = 0; k < cellOffsets.length; k++) view.setUint16(8 * nVars + 2 * k, cellOffsets[k]!, true);
      this.offsets[this.nextTileRow * this.layout.tilesLon + tc] = this.position;
      this.append(sink.bytes.subarray(0, sink.length));
      this.position += sink.length;
    }
    this.nextTileRow++;
  }

  /** Copies a record into the current block (records are small; one write per block, not per tile). */
  private append(record: Uint8Array): void {
    if (this.block.length - this.blockUsed < record.length) {
      this.flushBlock();
      this.block = new Uint8Array(Math.max(BLOCK_BYTES, record.length));
    }
    this.block.set(record, this.blockUsed);
    this.blockUsed += record.length;
  }

  private flushBlock(): void {
    if (this.blockUsed === 0) return;
    const full = this.block.subarray(0, this.blockUsed);
    this.crc = crc32(full, this.crc);
    if (this.spillFd === undefined) {
      this.records.push(full);
    } else {
      let done = 0;
      const at = (this.options.spillOffset ?? 0) + this.spillBytes;
      while (done < full.length) done += writeSync(this.spillFd, full, done, full.length - done, at + done);
      this.spillBytes += full.length;
    }
    this.block = new Uint8Array(0);
    this.blockUsed = 0;
  }

  /** The payload (records, then the tile table). Throws when bands are missing. */
  finish(): RunPayload {
    if (this.nextTileRow !== this.layout.tilesLat) {
      throw new Error(`RunWriter.finish: ${this.layout.tilesLat - this.nextTileRow} bands not added`);
    }
    this.flushBlock();
    this.offsets[this.layout.count] = this.position;
    const table = new Uint8Array(tileTableBytes(this.layout.count));
    const view = new DataView(table.buffer);
    for (let t = 0; t <= this.layout.count; t++) view.setFloat64(8 * t, this.offsets[t]!, true);
    view.setUint32(8 * (this.layout.count + 1), this.layout.count, true);
    view.setUint32(8 * (this.layout.count + 1) + 4, 0, true);
    const crc = crc32(table, this.crc) >>> 0;
    const bytes = this.position + table.length;
    if (this.spillFd !== undefined) {
      closeSync(this.spillFd);
      this.spillFd = undefined;
      return { spill: { path: this.options.spillPath!, bytes: this.spillBytes, offset: this.options.spillOffset ?? 0 }, chunks: [table], bytes, crc32: crc };
    }
    return { chunks: [...this.records, table], bytes, crc32: crc };
  }
}
