/**
 * Writes a run file: envelope (kind forecast-run, run metadata in `extra`) around a RunWriter
 * payload, to a temporary path renamed into place. A payload spilled to a file of its own is
 * copied behind the header; one spilled into the run file's temporary path, after room left for
 * the header (`runFileHeaderBytes`), gets its header written in front and is renamed, uncopied.
 */
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { temporaryPathFor } from "../artifact/atomic-write.ts";
import { encodeEnvelopeHeader, type EnvelopeInput, type SourceInfo } from "../artifact/envelope.ts";
import { DATASETS } from "../catalog.ts";
import { RUN_KIND } from "./run-reader.ts";
import type { RunPayload } from "./run-writer.ts";
import type { RunMeta } from "./types.ts";

function envelopeOf(meta: RunMeta, sources: SourceInfo[]): EnvelopeInput {
  const spec = DATASETS.forecast;
  return {
    magic: spec.magic,
    formatVersion: spec.formatVersion,
    kind: RUN_KIND,
    sources,
    counts: { steps: meta.steps.length, variables: meta.variables.length, cells: meta.grid.nLat * meta.grid.nLon },
    extra: meta as unknown as Record<string, unknown>,
  };
}

/** Bytes to leave for the header of a run file whose payload is written first (the largest payload size and CRC it may state). */
export function runFileHeaderBytes(meta: RunMeta, sources: SourceInfo[]): number {
  return encodeEnvelopeHeader(envelopeOf(meta, sources), Number.MAX_SAFE_INTEGER, 0xffffffff).byteLength;
}

/** The temporary path a payload may be spilled to, to become `file` in place (see writeRunFile). */
export function runFileTemporaryPath(file: string): string {
  return temporaryPathFor(file);
}

export async function writeRunFile(file: string, meta: RunMeta, payload: RunPayload, sources: SourceInfo[]): Promise<void> {
  const inPlace = payload.spill !== undefined && payload.spill.offset > 0;
  const header = encodeEnvelopeHeader(envelopeOf(meta, sources), payload.bytes, payload.crc32, inPlace ? payload.spill!.offset : undefined);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = inPlace ? payload.spill!.path : temporaryPathFor(file);
  const handle = await fs.open(tmp, inPlace ? "r+" : "w");
  try {
    await handle.write(header, 0, header.byteLength, 0);
    let at = header.byteLength;
    if (inPlace) at += payload.spill!.bytes;
    else if (payload.spill) {
      for await (const chunk of createReadStream(payload.spill.path, { highWaterMark: 8 << 20 })) {
        await handle.write(chunk as Buffer, 0, (chunk as Buffer).byteLength, at);
        at += (chunk as Buffer).byteLength;
      }
    }
    for (const chunk of payload.chunks) {
      await handle.write(chunk, 0, chunk.byteLength, at);
      at += chunk.byteLength;
    }
    await handle.truncate(at);
    await handle.sync();
    await handle.close();
    await fs.rename(tmp, file);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  } finally {
    if (payload.spill && !inPlace) await fs.rm(payload.spill.path, { force: true });
  }
}
