import { encodeEnvelope, type EnvelopeInput } from "./envelope.ts";
import { writeFileAtomic } from "./atomic-write.ts";

/** Writes an enveloped artifact atomically. */
export async function writeArtifact(finalPath: string, input: EnvelopeInput, payload: readonly Uint8Array[]): Promise<void> {
  await writeFileAtomic(finalPath, encodeEnvelope(input, payload));
}
