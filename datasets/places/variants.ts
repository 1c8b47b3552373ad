/**
 * The typo variants' block directory (FORMAT.md, sections `variantDirectory` and `variants`): the
 * entries, sorted by hash, are cut into blocks of at most ENTRIES_PER_BLOCK entries, and a new
 * block begins wherever the hash's top 16 bits (the variant's group, datasets/places/deletions.ts)
 * change. The directory holds each block's first hash and first entry; a lookup reads the blocks
 * that may hold its hash (about 512 bytes for one block), and the lookups of one group, whose
 * blocks are neighbours, are one read. Within a block the top 16 bits are the block's, so an entry
 * keeps only the low 16.
 */
export const ENTRIES_PER_BLOCK = 64;

/** Groups: a hash's top 16 bits. */
export const GROUPS = 65536;

/** The group (top 16 bits) of a variant hash. */
export function groupOf(hash: number): number {
  return hash >>> 16;
}
