/**
 * Magic, format version and build metadata for artifacts that are DuckDB files: a one-row table
 * `geodata_artifact(magic VARCHAR, format_version INTEGER, metadata VARCHAR)` (see FORMAT.md).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { DataFormatError } from "../common/errors.ts";
import type { BuildMetadata, EnvelopeInput } from "./envelope.ts";
import { buildMetadata } from "./envelope.ts";

export async function writeDuckdbMeta(conn: DuckDBConnection, input: EnvelopeInput): Promise<void> {
  // A DuckDB file has no separate payload to checksum: DuckDB checks its own blocks.
  const metadata = buildMetadata(input, 0, 0);
  await conn.run("CREATE OR REPLACE TABLE geodata_artifact(magic VARCHAR, format_version INTEGER, metadata VARCHAR)");
  const stmt = await conn.prepare("INSERT INTO geodata_artifact VALUES ($1, $2, $3)");
  stmt.bindVarchar(1, input.magic);
  stmt.bindInteger(2, input.formatVersion);
  stmt.bindVarchar(3, JSON.stringify(metadata));
  await stmt.run();
}

export async function readDuckdbMeta(
  conn: DuckDBConnection,
  expected: { magic: string; formatVersion: number; file: string },
): Promise<BuildMetadata> {
  let rows: unknown[][];
  try {
    const reader = await conn.runAndReadAll("SELECT magic, format_version, metadata FROM geodata_artifact");
    rows = reader.getRows();
  } catch {
    throw new DataFormatError({ file: expected.file }, "a geodata_artifact table", "none (not a Geodata DuckDB artifact)");
  }
  if (rows.length !== 1) {
    throw new DataFormatError({ file: expected.file, field: "geodata_artifact" }, "one row", `${rows.length} rows`);
  }
  const [magic, version, metadata] = rows[0] as [string, number, string];
  if (magic !== expected.magic) {
    throw new DataFormatError({ file: expected.file, field: "magic" }, expected.magic, JSON.stringify(magic));
  }
  if (version !== expected.formatVersion) {
    throw new DataFormatError({ file: expected.file, field: "format_version" }, `version ${expected.formatVersion}`, `version ${version}`);
  }
  return JSON.parse(metadata) as BuildMetadata;
}
