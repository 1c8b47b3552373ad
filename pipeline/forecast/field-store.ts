/**
 * Holds the fields of a run (each pasted on the domain grid) until they are transposed into
 * per-cell series. Small runs stay in memory, decoded. A run larger than the budget (a GFS 0.25
 * degree run of 22 variables x 209 steps is 19.6 GB of float32) keeps its fields packed where
 * they lie and decodes them band by band (packed-store.ts); the fields that cannot be decoded so
 * go to a temporary file of float32, read back one band of rows at a time.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import type { GribField } from "../grib/types.ts";
import type { Placement } from "./paste.ts";

/** A field as collected: the octets holding it, and the file they were read from. */
export interface PackedField {
  /** A chunk holding the message (a whole file or a fetched range). */
  bytes: Uint8Array;
  field: GribField;
  /** For messages. */
  name: string;
  /** Where `bytes` lie on disk: the file and the offset of their first octet. */
  location: { path: string; offset: number };
}

export interface FieldStore {
  put(key: string, values: Float32Array): void;
  /**
   * Keeps a field packed (a store that can), to be decoded band by band; several messages may
   * make up one field (sub-grids). False when the field must be decoded and `put` instead.
   */
  putPacked?(key: string, field: PackedField, placement: Placement, factor: number | undefined): boolean;
  has(key: string): boolean;
  /** `count` values of field `key` from cell `first`. */
  band(key: string, first: number, count: number): Float32Array;
  close(): void;
}

export function memoryFieldStore(): FieldStore {
  const fields = new Map<string, Float32Array>();
  return {
    put: (key, values) => void fields.set(key, values),
    has: (key) => fields.has(key),
    band: (key, first, count) => fields.get(key)!.subarray(first, first + count),
    close: () => fields.clear(),
  };
}

export function fileFieldStore(path: string): FieldStore {
  const fd = openSync(path, "w+");
  const offsets = new Map<string, number>();
  let end = 0;
  return {
    put(key, values) {
      const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, end + done);
      offsets.set(key, end);
      end += bytes.length;
    },
    has: (key) => offsets.has(key),
    band(key, first, count) {
      const out = new Float32Array(count);
      const bytes = new Uint8Array(out.buffer);
      const at = offsets.get(key)! + first * 4;
      let done = 0;
      while (done < bytes.length) {
        const n = readSync(fd, bytes, done, bytes.length - done, at + done);
        if (n === 0) throw new Error(`field store ${path}: short read of ${key}`);
        done += n;
      }
      return out;
    },
    close() {
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}
