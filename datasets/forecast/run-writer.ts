/**
 * Writes the payload of a run file (FORMAT.md): `add()` one band of tile rows at a time, south to
 * north, then `finish()`. Each band holds, per variable, the series of every cell of the band's
 * rows (time-major per cell: `values[(row * nLon + col) * nSteps + step]`).
 */
import { ByteSink, SeriesEncoder } from "./series-codec.ts";
import { tileExtent, tileLayout, tileTableBytes, type TileLayout } from "./tiles.ts";
import type { RunMeta } from "./types.ts";

/** Tile records are gathered into blocks of this size before they are written. */
const BLOCK_BYTES = 4 * 2 ** 20;

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

  constructor(private readonly meta: RunMeta) {
    this.layout = tileLayout(meta.grid, meta.tile);
    this.offsets = new Float64Array(this.layout.count + 1);
    this.position = tileTableBytes(this.layout.count);
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
    for (let tc = 0; tc < this.layout.tilesLon; tc++) {
      const { rows, cols } = tileExtent(grid, tile, this.nextTileRow, tc);
      const cells = rows * cols;
      sink.length = 0;
      const dirBytes = 4 * (variables.length * cells + 1);
      sink.zeros(dirBytes);
      // Directory entries are collected apart: the sink's buffer may move while blobs are added.
      const directory = new Uint32Array(variables.length * cells + 1);
      let entry = 0;
      for (const [v, variable] of variables.entries()) {
        const arr = values[v]!;
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            const cellInBand = r * grid.nLon + tc * tile.lon + c;
            directory[entry++] = sink.length;
            this.encoder.encode(sink, arr.subarray(cellInBand * nSteps, (cellInBand + 1) * nSteps), variable.scale, variable.offset, variable.name);
          }
        }
      }
      directory[entry] = sink.length;
      // 4 zero bytes let the decoder read whole words past a blob's end; then align to 4.
      sink.zeros(4 + ((4 - (sink.length % 4)) % 4));
      const view = new DataView(sink.bytes.buffer);
      for (let k = 0; k < directory.length; k++) view.setUint32(4 * k, directory[k]!, true);
      this.offsets[this.nextTileRow * this.layout.tilesLon + tc] = this.position;
      this.append(sink.bytes.subarray(0, sink.length));
      this.position += sink.length;
    }
    this.nextTileRow++;
  }

  /** Copies a record into the current block (records are small; one write per block, not per tile). */
  private append(record: Uint8Array): void {
    if (this.block.length - this.blockUsed < record.length) {
      if (this.blockUsed > 0) this.records.push(this.block.subarray(0, this.blockUsed));
      this.block = new Uint8Array(Math.max(BLOCK_BYTES, record.length));
      this.blockUsed = 0;
    }
    this.block.set(record, this.blockUsed);
    this.blockUsed += record.length;
  }

  /** The payload chunks, in order. Throws when bands are missing. */
  finish(): Uint8Array[] {
    if (this.nextTileRow !== this.layout.tilesLat) {
      throw new Error(`RunWriter.finish: ${this.layout.tilesLat - this.nextTileRow} bands not added`);
    }
    if (this.blockUsed > 0) this.records.push(this.block.subarray(0, this.blockUsed));
    this.blockUsed = 0;
    this.offsets[this.layout.count] = this.position;
    const head = new Uint8Array(tileTableBytes(this.layout.count));
    const view = new DataView(head.buffer);
    view.setUint32(0, this.layout.count, true);
    view.setUint32(4, 0, true);
    for (let t = 0; t <= this.layout.count; t++) view.setFloat64(8 + 8 * t, this.offsets[t]!, true);
    return [head, ...this.records];
  }
}
