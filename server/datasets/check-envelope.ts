import { promises as fs } from "node:fs";
import { openEnvelope } from "../../datasets/artifact/envelope.ts";
import { MissingInputError } from "../../datasets/common/errors.ts";
import type { Loaded, LoadContext } from "./loader.ts";

/**
 * Reads a small enveloped artifact (the elevation index: kilobytes, about 2 MB at full size) into
 * memory and checks magic, version, length and checksum. The large artifacts are read where they
 * lie (openEnvelopeFile), never through this.
 */
export async function readCheckedArtifact(ctx: LoadContext): Promise<Loaded<Uint8Array>> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(ctx.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new MissingInputError(ctx.file, `artifact '${ctx.spec.name}'`);
    throw err;
  }
  const opened = openEnvelope(bytes, { magic: ctx.spec.magic, formatVersion: ctx.spec.formatVersion, file: ctx.file });
  return { value: opened.payload, metadata: opened.metadata };
}
