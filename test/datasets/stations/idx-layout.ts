/**
 * Where things lie in a stations.idx, read from the file's own header and table of contents (the
 * tests that damage a file in place write at these offsets).
 */
import { HEADER_BYTES } from "../../../datasets/artifact/envelope.ts";
import type { SectionEntry } from "../../../datasets/admin/sections.ts";

export interface IdxLayout {
  /** Absolute offset of the payload. */
  payload: number;
  section: (name: string) => SectionEntry;
  /** A station's directory entry: its block's offset in `series`, its record count, and where the entry lies (absolute). */
  entryOf: (kind: string, id: string) => { offset: number; count: number; at: number };
  /** Absolute offset of a station's series block. */
  blockOf: (kind: string, id: string) => { at: number; count: number };
  /** Absolute offset and length of a station's answer text (its `answerEntries` words: offset, bytes, CRC-32). */
  answerOf: (kind: string, id: string) => { at: number; bytes: number };
}

export function layout(b: Buffer): IdxLayout {
  const metaLength = b.readUInt32LE(12);
  const payload = Math.ceil((HEADER_BYTES + metaLength) / 8) * 8;
  const toc = (JSON.parse(b.subarray(HEADER_BYTES, HEADER_BYTES + metaLength).toString("utf8")) as { extra: { sections: SectionEntry[] } }).extra.sections;
  const section = (name: string): SectionEntry => toc.find((s) => s.name === name)!;
  const indexOf = (kind: string, id: string): number => {
    const ids = section(`${kind}.ids`);
    for (let k = 0; k < ids.length / 8; k++) {
      if (b.toString("latin1", payload + ids.offset + 8 * k, payload + ids.offset + 8 * k + id.length) === id) return k;
    }
    throw new Error(`${id} not in the directory`);
  };
  const entryOf = (kind: string, id: string) => {
    const at = payload + section(`${kind}.entries`).offset + 8 * indexOf(kind, id);
    return { offset: b.readUInt32LE(at), count: b.readUInt32LE(at + 4), at };
  };
  const answerOf = (kind: string, id: string) => {
    const at = payload + section(`${kind}.answerEntries`).offset + 12 * indexOf(kind, id);
    return { at: payload + section(`${kind}.answers`).offset + b.readUInt32LE(at), bytes: b.readUInt32LE(at + 4) };
  };
  const blockOf = (kind: string, id: string) => {
    const e = entryOf(kind, id);
    return { at: payload + section("series").offset + e.offset, count: e.count };
  };
  return { payload, section, entryOf, blockOf, answerOf };
}

