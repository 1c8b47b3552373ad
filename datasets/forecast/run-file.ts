/**
 * Writes a run file: envelope (kind forecast-run, run metadata in `extra`) around a RunWriter
 * payload, to a temporary path renamed into place. A spilled payload is copied from its file.
 */
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { temporaryPathFor } from "../artifact/atomic-write.ts";
import { encodeEnvelopeHeader, type SourceInfo } from "../artifact/envelope.ts";
import { DATASETS } from "../catalog.ts";
import { RUN_KIND } from "./run-reader.ts";
import type { RunPayload } from "./run-writer.ts";
import type { RunMeta } from "./types.ts";

export async function writeRunFile(file: string, meta: RunMeta, payload: RunPayload, sources: SourceInfo[]): Promise<void> {
  const spec = DATASETS.forecast;
  const header = encodeEnvelopeHeader(
    {
      magic: spec.magic,
      formatVersion: spec.formatVersion,
      kind: RUN_KIND,
      sources,
      counts: { steps: meta.steps.length, variables: meta.variables.length, cells: meta.grid.nLat * meta.grid.nLon },
      extra: meta as unknown as Record<string, unknown>,
    },
    payload.bytes,
    payload.crc32,
  );
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = temporaryPathFor(file);
  const handle = await fs.open(tmp, "w");
  try {
    await handle.write(header);
    if (payload.spill) {
      for await (const chunk of createReadStream(payload.spill.path, { highWaterMark: 8 << 20 })) await handle.write(chunk as Buffer);
    }
    for (const chunk of payload.chunks) await handle.write(chunk);
    await handle.sync();
    await handle.close();
    await fs.rename(tmp, file);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  } finally {
    if (payload.spill) await fs.rm(payload.spill.path, { force: true });
  }
}
