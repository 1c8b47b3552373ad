/**
 * One DuckDB result column (the values of one chunk, as @duckdb/node-api gives them) turned into
 * an Arrow column (`Data`) by filling its buffers directly: a validity bitmap, then a typed array
 * for numbers, offsets plus UTF-8 bytes for strings, bits for booleans. apache-arrow's
 * `vectorFromArray` goes through a builder that appends value by value and re-grows its buffers:
 * profiled on a 1.25-million-row gazetteer, it took 78 % of the Arrow export's CPU time
 * (docs/rehearsals.md). NULL is a cleared validity bit over a zero value.
 */
import { Bool, Float64, Int16, Int32, Int64, Int8, makeData, Uint32, Uint64, Utf8, type Data, type DataType } from "apache-arrow";

export type ColumnBuilder = { type: () => DataType; data: (values: readonly unknown[]) => Data };

/** Validity bitmap (bit set = valid, LSB first) and the NULL count; no bitmap when nothing is NULL. */
function validity(values: readonly unknown[]): { nullBitmap: Uint8Array; nullCount: number } {
  let nullCount = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === null || values[i] === undefined) nullCount++;
  if (nullCount === 0) return { nullBitmap: new Uint8Array(0), nullCount };
  const nullBitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) if (values[i] !== null && values[i] !== undefined) nullBitmap[i >> 3]! |= 1 << (i & 7);
  return { nullBitmap, nullCount };
}

type FixedWidthArray = Float64Array | Int32Array | Uint32Array | Int16Array | Int8Array | BigInt64Array | BigUint64Array;

/** A fixed-width column: values of JavaScript type `kind` copied into one typed array; others are null. */
function fixedWidth(make: () => Float64 | Int32 | Uint32 | Int16 | Int8 | Int64 | Uint64, Ctor: { new (n: number): FixedWidthArray }, kind: "number" | "bigint"): ColumnBuilder {
  return {
    type: make,
    data: (values) => {
      const out = new Ctor(values.length);
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (typeof v === kind) out[i] = v as never;
      }
      return makeData({ type: make(), length: values.length, ...validity(values), data: out } as never);
    },
  };
}

const numbers = (make: () => Float64 | Int32 | Uint32 | Int16 | Int8, Ctor: { new (n: number): FixedWidthArray }): ColumnBuilder => fixedWidth(make, Ctor, "number");
const bigints = (make: () => Int64 | Uint64, Ctor: { new (n: number): BigInt64Array | BigUint64Array }): ColumnBuilder => fixedWidth(make, Ctor, "bigint");

const utf8: ColumnBuilder = {
  type: () => new Utf8(),
  data: (values) => {
    const offsets = new Int32Array(values.length + 1);
    // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
    let capacity = 0;
    for (const v of values) if (typeof v === "string") capacity += v.length * 3;
    const bytes = Buffer.allocUnsafe(capacity);
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === "string" && v.length > 0) at += bytes.write(v, at, "utf8");
      offsets[i + 1] = at;
    }
    const data = new Uint8Array(at);
    data.set(bytes.subarray(0, at));
    return makeData({ type: new Utf8(), length: values.length, ...validity(values), valueOffsets: offsets, data });
  },
};

const bool: ColumnBuilder = {
  type: () => new Bool(),
  data: (values) => {
    const bits = new Uint8Array((values.length + 7) >> 3);
    for (let i = 0; i < values.length; i++) if (values[i] === true) bits[i >> 3]! |= 1 << (i & 7);
    return makeData({ type: new Bool(), length: values.length, ...validity(values), data: bits });
  },
};

/** The DuckDB column types an export may hold, by DuckDB's type name. */
export const ARROW_COLUMNS: Readonly<Record<string, ColumnBuilder>> = {
  VARCHAR: utf8,
  DOUBLE: numbers(() => new Float64(), Float64Array),
  BIGINT: bigints(() => new Int64(), BigInt64Array),
  UBIGINT: bigints(() => new Uint64(), BigUint64Array),
  INTEGER: numbers(() => new Int32(), Int32Array),
  UINTEGER: numbers(() => new Uint32(), Uint32Array),
  SMALLINT: numbers(() => new Int16(), Int16Array),
  TINYINT: numbers(() => new Int8(), Int8Array),
  BOOLEAN: bool,
};

