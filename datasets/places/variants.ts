/**
 * The typo variants' directory size (FORMAT.md, sections `variantDirectory` and `variants`): the
 * entries are bucketed by the top bits of their hash, enough bits for about 64 entries a bucket
 * (one read of ~512 bytes a variant), at least 16 (a bucket's top bits and an entry's low 16 then
 * give the whole hash) and at most 22 (a directory of 16 MiB at full size).
 */
const ENTRIES_PER_BUCKET = 64;
export const MIN_DIRECTORY_BITS = 16;
export const MAX_DIRECTORY_BITS = 22;

export function variantDirectoryBits(entries: number): number {
  const bits = Math.ceil(Math.log2(Math.max(1, entries / ENTRIES_PER_BUCKET)));
  return Math.min(MAX_DIRECTORY_BITS, Math.max(MIN_DIRECTORY_BITS, bits));
}
