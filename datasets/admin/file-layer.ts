/**
 * A polygon layer of admin.idx read where it lies (FORMAT.md, "Polygon layers"), for the lookups
 * and the brute-force searches (polygon-layer.ts's LayerAccess).
 */
import type { ByteSource } from "../common/byte-source.ts";
import { DataFormatError } from "../common/errors.ts";
import { featureCount, type LayerAccess } from "./polygon-layer.ts";
import { f32s, f64s, readAligned, u32s, type SectionTable } from "./sections.ts";

/**
 * A polygon layer of the file: feature tables in memory, vertices read by range; chains and their
 * chunk boxes read by range too, or held in memory with `residentChains` (the admin layer's,
 * about 1 MB: the offshore and coast searches then read only the vertices of the chunks their
 * boxes let through).
 */
export class FileLayer implements LayerAccess {
  readonly featureBox: Float64Array;
  readonly featureChainStart: Uint32Array;
  readonly vertexCount: number;
  private readonly file: string;
  private readonly xyAt: number;
  private readonly chainStartAt: number;
  private readonly chainBoxAt: number;
  private readonly chainChunkAt: number;
  private readonly chunkBoxAt: number;
  private readonly chainCount: number;
  private readonly chunkCount: number;
  private readonly resident: { chainStart: Uint32Array; chainBox: Float64Array; chainChunkStart: Uint32Array; chunkBox: Float32Array } | undefined;

  constructor(
    private readonly source: ByteSource,
    table: SectionTable,
    readonly name: "admin" | "tz",
    residentChains: boolean,
  ) {
    this.file = table.file;
    this.featureBox = table.f64(`${name}.featureBox`);
    this.featureChainStart = table.u32(`${name}.featureChainStart`);
    const xy = table.entry(`${name}.xy`, "f64");
    const chainStart = table.entry(`${name}.chainStart`, "u32");
    const chainBox = table.entry(`${name}.chainBox`, "f64");
    const chainChunk = table.entry(`${name}.chainChunkStart`, "u32");
    const chunkBox = table.entry(`${name}.chunkBox`, "f32");
    this.chainChunkAt = chainChunk.offset;
    this.chunkBoxAt = chunkBox.offset;
    this.chunkCount = chunkBox.length / 4;
    this.xyAt = xy.offset;
    this.vertexCount = xy.length / 2;
    this.chainStartAt = chainStart.offset;
    this.chainBoxAt = chainBox.offset;
    this.chainCount = chainStart.length - 1;
    const features = featureCount(this);
    const fail = (field: string, expected: string, got: string | number): never => {
      throw new DataFormatError({ file: table.file, field: `${name}.${field}` }, expected, String(got));
    };
    if (this.featureBox.length !== 4 * features) fail("featureBox", `${4 * features} numbers (4 per feature)`, this.featureBox.length);
    if (chainBox.length !== 4 * this.chainCount) fail("chainBox", `${4 * this.chainCount} numbers (4 per chain)`, chainBox.length);
    if (chainChunk.length !== this.chainCount + 1) fail("chainChunkStart", `${this.chainCount + 1} entries (chains + 1)`, chainChunk.length);
    // Tables held in memory are checked whole: a range taken from them is then always valid.
    const checkStarts = (starts: Uint32Array, limit: number, field: string, unit: string): void => {
      for (let k = 1; k < starts.length; k++) if (starts[k]! < starts[k - 1]!) fail(field, "ascending starts", `${starts[k]} after ${starts[k - 1]} at ${k}`);
      if (starts[0] !== 0 || starts[starts.length - 1] !== limit) fail(field, `starts from 0 to ${unit} ${limit}`, `${starts[0]} to ${starts[starts.length - 1]}`);
    };
    checkStarts(this.featureChainStart, this.chainCount, "featureChainStart", "chain");
    if (residentChains) {
      const chainStarts = table.u32(`${name}.chainStart`);
      checkStarts(chainStarts, this.vertexCount, "chainStart", "vertex");
      const chainChunkStart = table.u32(`${name}.chainChunkStart`);
      checkStarts(chainChunkStart, this.chunkCount, "chainChunkStart", "chunk");
      this.resident = { chainStart: chainStarts, chainBox: table.f64(`${name}.chainBox`), chainChunkStart, chunkBox: table.f32(`${name}.chunkBox`) };
    }
  }

  private read(at: number, bytes: number, field: string): Uint8Array {
    return readAligned(this.source, at, bytes, this.file, `${this.name}.${field}`);
  }

  /** Entries c0 .. c1 (inclusive) of a per-chain table of starts, none above `limit`. */
  private starts(at: number, c0: number, c1: number, limit: number, field: string): Uint32Array {
    if (c0 < 0 || c1 > this.chainCount || c1 < c0) throw new DataFormatError({ file: this.file, field: `${this.name}.featureChainStart` }, `chains within 0..${this.chainCount}`, `${c0}..${c1}`);
    const starts = u32s(this.read(at + 4 * c0, 4 * (c1 - c0 + 1), field));
    if (starts[c1 - c0]! > limit) throw new DataFormatError({ file: this.file, field: `${this.name}.${field}` }, `entries up to ${limit}`, String(starts[c1 - c0]));
    return starts;
  }

  chainStarts(c0: number, c1: number): Uint32Array {
    return this.resident?.chainStart.subarray(c0, c1 + 1) ?? this.starts(this.chainStartAt, c0, c1, this.vertexCount, "chainStart");
  }

  chainBoxes(c0: number, c1: number): Float64Array {
    if (this.resident) return this.resident.chainBox.subarray(4 * c0, 4 * c1);
    return f64s(this.read(this.chainBoxAt + 32 * c0, 32 * (c1 - c0), "chainBox"));
  }

  chainChunks(c0: number, c1: number): Uint32Array {
    return this.resident?.chainChunkStart.subarray(c0, c1 + 1) ?? this.starts(this.chainChunkAt, c0, c1, this.chunkCount, "chainChunkStart");
  }

  chunkBoxes(j0: number, j1: number): Float32Array {
    if (this.resident) return this.resident.chunkBox.subarray(4 * j0, 4 * j1);
    return f32s(this.read(this.chunkBoxAt + 16 * j0, 16 * (j1 - j0), "chunkBox"));
  }

  vertices(v0: number, v1: number): Float64Array {
    if (v1 > this.vertexCount || v1 < v0) throw new DataFormatError({ file: this.file, field: `${this.name}.xy` }, `vertices within 0..${this.vertexCount}`, `${v0}..${v1}`);
    return f64s(this.read(this.xyAt + 16 * v0, 16 * (v1 - v0), "xy"));
  }
}
