/**
 * Publishes the places index: envelope header (with the payload's size and CRC already known),
 * then the payload copied from its temporary file in 8 MiB chunks, fsync, rename into place.
 */
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { temporaryPathFor } from "../../datasets/artifact/atomic-write.ts";
import { encodeEnvelopeHeader, type EnvelopeInput } from "../../datasets/artifact/envelope.ts";
import type { WrittenPayload } from "../../datasets/places/index-writer.ts";

export async function publishIndex(finalPath: string, input: EnvelopeInput, payload: WrittenPayload): Promise<number> {
  await fs.mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = temporaryPathFor(finalPath);
  const handle = await fs.open(tmp, "w");
  try {
    const header = encodeEnvelopeHeader(input, payload.bytes, payload.crc32);
    await handle.write(header);
    for await (const chunk of createReadStream(payload.file, { highWaterMark: 8 << 20 })) await handle.write(chunk as Buffer);
    await handle.sync();
    await handle.close();
    await fs.rename(tmp, finalPath);
    return header.byteLength + payload.bytes;
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
