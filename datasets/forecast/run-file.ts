/** Writes a run file: envelope (kind forecast-run, run metadata in `extra`) around a RunWriter payload. */
import type { SourceInfo } from "../artifact/envelope.ts";
import { writeArtifact } from "../artifact/write-artifact.ts";
import { DATASETS } from "../catalog.ts";
import { RUN_KIND } from "./run-reader.ts";
import type { RunMeta } from "./types.ts";

export async function writeRunFile(file: string, meta: RunMeta, payload: readonly Uint8Array[], sources: SourceInfo[]): Promise<void> {
  const spec = DATASETS.forecast;
  await writeArtifact(
    file,
    {
      magic: spec.magic,
      formatVersion: spec.formatVersion,
      kind: RUN_KIND,
      sources,
      counts: {
        steps: meta.steps.length,
        variables: meta.variables.length,
        cells: meta.grid.nLat * meta.grid.nLon,
      },
      extra: meta as unknown as Record<string, unknown>,
    },
    payload,
  );
}
