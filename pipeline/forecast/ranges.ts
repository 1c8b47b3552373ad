/**
 * Byte ranges to fetch for the selected inventory entries: one range per message, adjacent
 * messages merged so that a step's fields come in as few requests as possible.
 */
import type { InventoryEntry } from "./inventory.ts";

export interface ByteRange {
  first: number;
  /** Inclusive; undefined = to the end of the file. */
  last: number | undefined;
}

export function rangesFor(entries: readonly InventoryEntry[]): ByteRange[] {
  const byOffset = new Map<number, ByteRange>();
  for (const e of entries) byOffset.set(e.offset, { first: e.offset, last: e.end === undefined ? undefined : e.end - 1 });
  const sorted = [...byOffset.values()].sort((a, b) => a.first - b.first);
  const merged: ByteRange[] = [];
  for (const r of sorted) {
    const prev = merged[merged.length - 1];
    if (prev && prev.last !== undefined && prev.last + 1 === r.first) prev.last = r.last;
    else merged.push({ ...r });
  }
  return merged;
}
