import { promises as fs } from "node:fs";
import { openEnvelopeWork } from "../../datasets/artifact/envelope.ts";
import { finishInSlices } from "../../datasets/common/work.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Loaded, LoadContext } from "./loader.ts";

/**
 * Reads an enveloped artifact into memory and checks magic, version, length and checksum.
 * Dataset loaders build on it; on its own it serves datasets whose reader is not written yet.
 */
export async function readCheckedArtifact(ctx: LoadContext): Promise<Loaded<Uint8Array>> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(ctx.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new MissingInputError(ctx.file, `artifact '${ctx.spec.name}'`);
    throw err;
  }
  // The checksum in slices: a server opening a new release keeps answering meanwhile.
  const opened = await finishInSlices(openEnvelopeWork(bytes, { magic: ctx.spec.magic, formatVersion: ctx.spec.formatVersion, file: ctx.file }));
  return { value: opened.payload, metadata: opened.metadata };
}
