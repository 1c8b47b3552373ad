/**
 * API key check, constant-time without a digest per request: every configured key is kept
 * zero-padded to KEY_BYTES, the presented key is written into a zeroed buffer of the same size,
 * and both the bytes (`timingSafeEqual`) and the lengths are compared against every key, with no
 * early exit. The time taken says nothing about how much of a key matched or which key it was
 * (a padded comparison costs about 0.7 µs where the SHA-256 of the key cost 5.5 µs of a 90 µs hit).
 */
import { timingSafeEqual } from "node:crypto";

/** The longest key the configuration accepts (datasets/common/config.ts: 16-256 printable ASCII characters). */
export const KEY_BYTES = 256;

interface KnownKey {
  padded: Buffer;
  length: number;
}

function padded(key: string): KnownKey {
  const bytes = Buffer.alloc(KEY_BYTES);
  const length = bytes.write(key, "utf8");
  return { padded: bytes, length };
}

export class KeyChecker {
  private readonly keys: KnownKey[];
  /** Room for a presented key of KEY_BYTES characters in UTF-8 (up to 3 bytes each, or 4 per pair), to tell it is too long. */
  private readonly scratch = Buffer.alloc(3 * KEY_BYTES + 1);

  constructor(keys: readonly string[]) {
    this.keys = keys.filter((k) => Buffer.byteLength(k, "utf8") <= KEY_BYTES).map(padded);
  }

  isValid(presented: string | undefined): boolean {
    // Longer than any key can be: no comparison can succeed (the bound is documented, not secret).
    if (presented === undefined || presented.length === 0 || presented.length > KEY_BYTES) return false;
    const scratch = this.scratch;
    scratch.fill(0);
    const length = scratch.write(presented, "utf8");
    if (length > KEY_BYTES) return false;
    const candidate = scratch.subarray(0, KEY_BYTES);
    let ok = 0;
    for (const known of this.keys) {
      // No early exit: always compare against every key, bytes and length alike.
      ok |= Number(timingSafeEqual(candidate, known.padded)) & Number(known.length === length);
    }
    return ok === 1;
  }
}
