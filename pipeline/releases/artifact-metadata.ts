/**
 * The build metadata of a dataset's identifying artifact (datasets/artifact/FORMAT.md), read
 * without its payload: the header and metadata block of an enveloped file, or the meta row of a
 * DuckDB file. A release's counts and build time are copied from it into release.json.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readDuckdbMeta } from "../../datasets/artifact/duckdb-meta.ts";
import { HEADER_BYTES, readEnvelopeHeader, type BuildMetadata } from "../../datasets/artifact/envelope.ts";
import type { DatasetSpec } from "../../datasets/catalog.ts";

export async function artifactMetadata(spec: DatasetSpec, dir: string): Promise<BuildMetadata> {
  const file = path.join(dir, spec.file);
  const expected = { magic: spec.magic, formatVersion: spec.formatVersion, file: spec.file };
  if (spec.storage === "duckdb") {
    const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
    try {
      const conn = await instance.connect();
      try {
        return await readDuckdbMeta(conn, expected);
      } finally {
        conn.closeSync();
      }
    } finally {
      instance.closeSync();
    }
  }
  const handle = await fs.open(file, "r");
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    await handle.read(head, 0, HEADER_BYTES, 0);
    const whole = Buffer.alloc(HEADER_BYTES + head.readUInt32LE(12));
    const { bytesRead } = await handle.read(whole, 0, whole.length, 0);
    return readEnvelopeHeader(whole.subarray(0, bytesRead), expected).metadata;
  } finally {
    await handle.close();
  }
}
