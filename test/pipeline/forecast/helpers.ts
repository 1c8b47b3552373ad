/** Shared helpers of the forecast pipeline tests: a temporary data directory and a quiet step context. */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openEnvelope } from "../../../datasets/artifact/envelope.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import type { StepContext } from "../../../pipeline/common/step.ts";

export async function tempContext(prefix: string): Promise<StepContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  return { config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger };
}

export const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "forecast");

/** The payload bytes of every run file of a store, by file name (metadata differs: sources and build time). */
export async function runPayloads(dataDir: string): Promise<Map<string, Buffer>> {
  const dir = path.join(dataDir, "forecast");
  const store = await openForecastStore(dir);
  const out = new Map<string, Buffer>();
  for (const entry of store.index.runs) {
    const file = path.join(dir, entry.file);
    out.set(entry.file, Buffer.from(openEnvelope(await readFile(file), { magic: DATASETS.forecast.magic, formatVersion: DATASETS.forecast.formatVersion, file }).payload));
  }
  store.close();
  return out;
}
