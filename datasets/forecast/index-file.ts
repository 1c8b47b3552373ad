/**
 * `forecast/index.bin`: the enveloped list of the runs being served (FORMAT.md). Publishing a new
 * index is the atomic switch between run sets; run files not listed are no longer served.
 */
import { openEnvelope, type BuildMetadata, type SourceInfo } from "../artifact/envelope.ts";
import { writeArtifact } from "../artifact/write-artifact.ts";
import { DATASETS } from "../catalog.ts";
import { DataFormatError } from "../common/errors.ts";
import type { ForecastIndex } from "./types.ts";

export const INDEX_KIND = "forecast-index";

export function decodeIndex(bytes: Uint8Array, file: string): { index: ForecastIndex; metadata: BuildMetadata } {
  const spec = DATASETS.forecast;
  const opened = openEnvelope(bytes, { magic: spec.magic, formatVersion: spec.formatVersion, file });
  if (opened.metadata.kind !== INDEX_KIND) throw new DataFormatError({ file, field: "kind" }, INDEX_KIND, JSON.stringify(opened.metadata.kind));
  let index: ForecastIndex;
  try {
    index = JSON.parse(Buffer.from(opened.payload).toString("utf8")) as ForecastIndex;
  } catch (err) {
    throw new DataFormatError({ file, offset: opened.payloadOffset }, "a JSON run list", `unparseable JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(index.runs)) throw new DataFormatError({ file, offset: opened.payloadOffset }, "an object with a runs array", JSON.stringify(index).slice(0, 100));
  for (const [k, run] of index.runs.entries()) {
    if (typeof run.model !== "string" || typeof run.runTime !== "string" || typeof run.file !== "string" || run.file.includes("..")) {
      throw new DataFormatError({ file, field: `runs[${k}]` }, "model, runTime and a relative file", JSON.stringify(run));
    }
  }
  return { index, metadata: opened.metadata };
}

export async function writeIndex(file: string, index: ForecastIndex, sources: SourceInfo[]): Promise<void> {
  const spec = DATASETS.forecast;
  const models = new Set(index.runs.map((r) => r.model));
  await writeArtifact(
    file,
    {
      magic: spec.magic,
      formatVersion: spec.formatVersion,
      kind: INDEX_KIND,
      sources,
      counts: { runs: index.runs.length, models: models.size },
      extra: { models: [...models].sort() },
    },
    [Buffer.from(JSON.stringify(index), "utf8")],
  );
}
