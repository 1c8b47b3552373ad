/** Shared helpers of the forecast pipeline tests: a temporary data directory and a quiet step context. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import type { StepContext } from "../../../pipeline/common/step.ts";

export async function tempContext(prefix: string): Promise<StepContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  return { config: readConfig({ GEODATA_DATA_DIR: dataDir }), logger: silentLogger };
}

export const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "forecast");
