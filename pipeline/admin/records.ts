/**
 * The slot table in the artifact's form: each boundary record's candidates with their edge runs
 * cut into chunks of at most CHUNK_EDGES edges with float32 boxes (datasets/admin/
 * boundary-record.ts), one record after the other, and two words per slot pointing at them.
 * Computed here, at build time, so that opening the artifact computes nothing.
 */
import { SLOT_BOUNDARY_BIT, SLOT_FALLBACK } from "../../datasets/admin/admin-index.ts";
import { encodeRecord, type RecordCandidate, type RecordChunk } from "../../datasets/admin/boundary-record.ts";
import { CHAIN_CHUNK_EDGES, CHUNK_MARGIN, writeVertexBox, type PolygonLayer } from "../../datasets/admin/polygon-layer.ts";
import type { LayerCandidates, SlotTable } from "./build-index.ts";

/**
 * Edges per chunk (CHAIN_CHUNK_EDGES): a chunk whose box misses the box of the segment
 * point→reference cannot cross it, and a chunk farther than the best distance cannot be nearer,
 * so a lookup skips both (and does not read their vertices). Cells with thousands of edges
 * (OpenStreetMap borders in the Alps) then cost tens of microseconds.
 */
const CHUNK_EDGES = CHAIN_CHUNK_EDGES;

function candidatesOf(layer: PolygonLayer, L: LayerCandidates, b: number, geom: Float64Array): RecordCandidate[] {
  const o = 6 * b;
  const x0 = geom[o + 2]!;
  const y0 = geom[o + 3]!;
  const x1 = geom[o + 4]!;
  const y1 = geom[o + 5]!;
  const out: RecordCandidate[] = [];
  for (let c = L.candOffset[b]!; c < L.candOffset[b + 1]!; c++) {
    const candidate: RecordCandidate = { word: L.candFeature[c]!, inner: [], outer: [] };
    for (let r = L.candRunOffset[c]!; r < L.candRunOffset[c + 1]!; r++) {
      const end = L.runStart[r]! + L.runCount[r]!;
      for (let from = L.runStart[r]!; from < end; from += CHUNK_EDGES) {
        const count = Math.min(CHUNK_EDGES, end - from);
        const box = new Float32Array(4);
        // A run of n edges has n + 1 vertices.
        writeVertexBox(layer.xy, from, from + count + 1, box, 0, CHUNK_MARGIN);
        const chunk: RecordChunk = { start: from, count, box };
        (box[0]! > x1 || box[2]! < x0 || box[1]! > y1 || box[3]! < y0 ? candidate.outer : candidate.inner).push(chunk);
      }
    }
    out.push(candidate);
  }
  return out;
}

/** Slot entries (two words per slot: FORMAT.md, "Slots") and the records they point at. */
export function encodeSlots(table: SlotTable, admin: PolygonLayer, tz: PolygonLayer): { slots: Uint32Array; records: Uint8Array; chunks: number } {
  const slots = new Uint32Array(2 * table.slotWord.length);
  const parts: Uint8Array[] = [];
  let offset = 0;
  let chunks = 0;
  for (let s = 0; s < table.slotWord.length; s++) {
    const word = table.slotWord[s]!;
    if (word < SLOT_BOUNDARY_BIT || word === SLOT_FALLBACK) {
      slots[2 * s] = word;
      continue;
    }
    const b = word & 0x7fffffff;
    const content = {
      geom: table.boundaryGeom.subarray(6 * b, 6 * b + 6),
      admin: candidatesOf(admin, table.adminCandidates, b, table.boundaryGeom),
      tz: candidatesOf(tz, table.tzCandidates, b, table.boundaryGeom),
    };
    for (const c of [...content.admin, ...content.tz]) chunks += c.inner.length + c.outer.length;
    const bytes = encodeRecord(content);
    // Records are multiples of 8 bytes: the offset / 8 fits the slot word's 31 bits up to 16 GiB.
    if (offset / 8 >= SLOT_BOUNDARY_BIT) throw new RangeError(`admin records: more than ${8 * SLOT_BOUNDARY_BIT} bytes`);
    slots[2 * s] = (SLOT_BOUNDARY_BIT | (offset / 8)) >>> 0;
    slots[2 * s + 1] = bytes.byteLength;
    parts.push(bytes);
    offset += bytes.byteLength;
  }
  return { slots, records: Buffer.concat(parts), chunks };
}
