/**
 * Where each internal tile of a GeoTIFF lies: its offset and stored size (TileOffsets,
 * TileByteCounts). Our writer's stored tiles are all the same size and back to back, so the table
 * is two numbers, whatever the tile count; any other file keeps both lists, 32-bit as a classic
 * TIFF stores them. (A server holding the whole SRTM set opens 14,031 files: at 32x32 tiles their
 * lists would be 11.5 KB each, 162 MB in every worker.)
 */
export class TileTable {
  private constructor(
    readonly count: number,
    /** Uniform: the first tile's offset and every tile's size. */
    private readonly first: number,
    private readonly size: number,
    /** Listed: one entry per tile. */
    private readonly offsets: Uint32Array | undefined,
    private readonly sizes: Uint32Array | undefined,
  ) {}

  static of(offsets: readonly number[], byteCounts: readonly number[]): TileTable {
    const n = offsets.length;
    let uniform = n > 0;
    for (let k = 1; k < n && uniform; k++) uniform = byteCounts[k] === byteCounts[0] && offsets[k] === offsets[0]! + k * byteCounts[0]!;
    if (uniform) return new TileTable(n, offsets[0]!, byteCounts[0]!, undefined, undefined);
    return new TileTable(n, 0, 0, Uint32Array.from(offsets), Uint32Array.from(byteCounts));
  }

  /** True when every tile has the same size and they lie back to back. */
  get uniform(): boolean {
    return this.offsets === undefined;
  }

  offset(k: number): number {
    return this.offsets === undefined ? this.first + k * this.size : this.offsets[k]!;
  }

  bytes(k: number): number {
    return this.sizes === undefined ? this.size : this.sizes[k]!;
  }

  /** Where the last byte of any tile ends: the size a file needs. */
  get end(): number {
    if (this.offsets === undefined) return this.first + this.count * this.size;
    let end = 0;
    for (let k = 0; k < this.count; k++) end = Math.max(end, this.offsets[k]! + this.sizes![k]!);
    return end;
  }

  /** The largest stored tile, bytes. */
  get largest(): number {
    if (this.sizes === undefined) return this.size;
    let max = 0;
    for (const s of this.sizes) max = Math.max(max, s);
    return max;
  }
}
