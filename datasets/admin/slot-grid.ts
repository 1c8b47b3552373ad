/**
 * The H3 cells of one resolution laid out as dense "slots": for each icosahedron face, the rows
 * j = jMin..jMax of its hex grid, each holding the hexes i = iMin(j)..iMin(j)+count-1 that points
 * of that face fall into. A cell that straddles a face edge has one slot on each face (each slot
 * holds the same answer for the part of the cell on its face). `slotOf(lat, lon)` is the hot path.
 */
import { FACE_COUNT, faceBases, nearestFace, roundHex, type FaceBasis } from "./h3-faces.ts";

const DEG = Math.PI / 180;
/** Marks a 1° cell of the face table that more than one face may own. */
const MIXED = 255;

/**
 * For each 1°×1° longitude/latitude cell, the face nearest to every point of the cell, or MIXED.
 * A cell is unique when, at its centre, the nearest face beats the second by more than any 1°
 * move can change (|n1 − n2| ≤ 0.75 for neighbouring faces, times 0.0175 rad < 0.02): so the table
 * only saves the 20 dot products and never changes the face.
 */
function buildFaceTable(): Uint8Array {
  const table = new Uint8Array(360 * 180);
  const dots = new Float64Array(FACE_COUNT);
  for (let row = 0; row < 180; row++) {
    for (let col = 0; col < 360; col++) {
      const phi = (row - 90 + 0.5) * DEG;
      const lam = (col - 180 + 0.5) * DEG;
      const px = Math.cos(phi) * Math.cos(lam);
      const py = Math.cos(phi) * Math.sin(lam);
      const pz = Math.sin(phi);
      const f = nearestFace(px, py, pz);
      let second = -2;
      for (let g = 0; g < FACE_COUNT; g++) {
        if (g === f) continue;
        dots[g] = faceDot(g, px, py, pz);
        if (dots[g]! > second) second = dots[g]!;
      }
      table[row * 360 + col] = faceDot(f, px, py, pz) - second > 0.02 ? f : MIXED;
    }
  }
  return table;
}

let faceBasesRes0: FaceBasis[] | undefined;
function faceDot(f: number, px: number, py: number, pz: number): number {
  faceBasesRes0 ??= faceBases(0);
  const n = faceBasesRes0[f]!.n;
  return n[0]! * px + n[1]! * py + n[2]! * pz;
}

const FACE_TABLE = buildFaceTable();

export interface SlotGridLayout {
  res: number;
  /** Per face, the first row's j. */
  faceJMin: Int32Array;
  /** Per face, the index of its first row in the row arrays (length FACE_COUNT + 1). */
  faceRowStart: Int32Array;
  /** Per row, the smallest i. */
  rowIMin: Int32Array;
  /** Per row, the number of slots. */
  rowCount: Int32Array;
  /** Per row, the id of its first slot (length rows + 1: the last is the slot count). */
  rowSlotStart: Int32Array;
}

export class SlotGrid {
  readonly bases: FaceBasis[];
  readonly slotCount: number;
  private readonly ij = new Int32Array(2);
  // Flattened bases for the hot path: n, u, w per face (9 numbers).
  private readonly flat: Float64Array;

  constructor(readonly layout: SlotGridLayout) {
    this.bases = faceBases(layout.res);
    this.slotCount = layout.rowSlotStart[layout.rowSlotStart.length - 1]!;
    this.flat = new Float64Array(FACE_COUNT * 9);
    for (let f = 0; f < FACE_COUNT; f++) {
      const b = this.bases[f]!;
      const s = b.scale;
      this.flat.set([b.n[0]!, b.n[1]!, b.n[2]!, b.u[0]! * s, b.u[1]! * s, b.u[2]! * s, b.w[0]! * s, b.w[1]! * s, b.w[2]! * s], f * 9);
    }
  }

  /** The slot of a point (degrees), or -1 when outside the stored rows (never for valid input). */
  slotOf(lat: number, lon: number): number {
    const phi = lat * DEG;
    const lam = lon * DEG;
    const cp = Math.cos(phi);
    const px = cp * Math.cos(lam);
    const py = cp * Math.sin(lam);
    const pz = Math.sin(phi);
    const row = Math.min(179, Math.floor(lat + 90));
    const col = Math.min(359, Math.floor(lon + 180));
    const f = row >= 0 && col >= 0 ? FACE_TABLE[row * 360 + col]! : MIXED;
    return this.slotOnFace(f === MIXED ? nearestFace(px, py, pz) : f, px, py, pz);
  }

  slotOfVector(px: number, py: number, pz: number): number {
    const f = nearestFace(px, py, pz);
    return this.slotOnFace(f, px, py, pz);
  }

  /** The slot of a unit vector projected on face `f` (which need not be the nearest). */
  slotOnFace(f: number, px: number, py: number, pz: number): number {
    const b = this.flat;
    const o = f * 9;
    const d = b[o]! * px + b[o + 1]! * py + b[o + 2]! * pz;
    const x = (b[o + 3]! * px + b[o + 4]! * py + b[o + 5]! * pz) / d;
    const y = (b[o + 6]! * px + b[o + 7]! * py + b[o + 8]! * pz) / d;
    roundHex(x, y, this.ij);
    return this.slotAt(f, this.ij[0]!, this.ij[1]!);
  }

  /** The slot of hex (i, j) on face f, or -1 when not stored. */
  slotAt(f: number, i: number, j: number): number {
    const L = this.layout;
    const row = j - L.faceJMin[f]!;
    const rowsOfFace = L.faceRowStart[f + 1]! - L.faceRowStart[f]!;
    if (row < 0 || row >= rowsOfFace) return -1;
    const r = L.faceRowStart[f]! + row;
    const col = i - L.rowIMin[r]!;
    if (col < 0 || col >= L.rowCount[r]!) return -1;
    return L.rowSlotStart[r]! + col;
  }

  /** (face, i, j) of every slot, for the pipeline. */
  coordinates(): { face: Uint8Array; i: Int32Array; j: Int32Array } {
    const L = this.layout;
    const face = new Uint8Array(this.slotCount);
    const is = new Int32Array(this.slotCount);
    const js = new Int32Array(this.slotCount);
    for (let f = 0; f < FACE_COUNT; f++) {
      for (let r = L.faceRowStart[f]!; r < L.faceRowStart[f + 1]!; r++) {
        const j = L.faceJMin[f]! + (r - L.faceRowStart[f]!);
        for (let c = 0; c < L.rowCount[r]!; c++) {
          const s = L.rowSlotStart[r]! + c;
          face[s] = f;
          is[s] = L.rowIMin[r]! + c;
          js[s] = j;
        }
      }
    }
    return { face, i: is, j: js };
  }
}

/**
 * Finds the rows of every face by sampling the sphere densely (a Fibonacci lattice with several
 * points per cell) and widening each row and face by `margin` hexes, so that no point falls
 * outside the layout.
 */
export function computeLayout(res: number, samplesPerCell = 6, margin = 2): SlotGridLayout {
  const cells = 2 + 120 * Math.pow(7, res);
  const n = Math.ceil(cells * samplesPerCell);
  const bases = faceBases(res);
  const grid = { min: new Map<number, number>(), max: new Map<number, number>() };
  const ij = new Int32Array(2);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let k = 0; k < n; k++) {
    const z = 1 - (2 * (k + 0.5)) / n;
    const rad = Math.sqrt(1 - z * z);
    const th = golden * k;
    const px = rad * Math.cos(th);
    const py = rad * Math.sin(th);
    const f = nearestFace(px, py, z);
    const b = bases[f]!;
    const d = b.n[0]! * px + b.n[1]! * py + b.n[2]! * z;
    const x = ((b.u[0]! * px + b.u[1]! * py + b.u[2]! * z) / d) * b.scale;
    const y = ((b.w[0]! * px + b.w[1]! * py + b.w[2]! * z) / d) * b.scale;
    roundHex(x, y, ij);
    const key = f * 1_000_000 + (ij[1]! + 500_000);
    const lo = grid.min.get(key);
    if (lo === undefined || ij[0]! < lo) grid.min.set(key, ij[0]!);
    const hi = grid.max.get(key);
    if (hi === undefined || ij[0]! > hi) grid.max.set(key, ij[0]!);
  }
  const faceJMin = new Int32Array(FACE_COUNT);
  const faceRowStart = new Int32Array(FACE_COUNT + 1);
  const rowIMin: number[] = [];
  const rowCount: number[] = [];
  for (let f = 0; f < FACE_COUNT; f++) {
    const js = [...grid.min.keys()].filter((k) => Math.floor(k / 1_000_000) === f).map((k) => (k % 1_000_000) - 500_000);
    const jLo = Math.min(...js) - margin;
    const jHi = Math.max(...js) + margin;
    faceJMin[f] = jLo;
    faceRowStart[f] = rowIMin.length;
    for (let j = jLo; j <= jHi; j++) {
      // A row's extent: the union of its own and its neighbours' sampled extents, widened.
      let lo = Infinity;
      let hi = -Infinity;
      for (let dj = -margin; dj <= margin; dj++) {
        const key = f * 1_000_000 + (j + dj + 500_000);
        const a = grid.min.get(key);
        const b = grid.max.get(key);
        if (a !== undefined && b !== undefined) {
          lo = Math.min(lo, a);
          hi = Math.max(hi, b);
        }
      }
      rowIMin.push(lo - margin);
      rowCount.push(hi - lo + 1 + 2 * margin);
    }
  }
  faceRowStart[FACE_COUNT] = rowIMin.length;
  const rowSlotStart = new Int32Array(rowIMin.length + 1);
  for (let r = 0; r < rowIMin.length; r++) rowSlotStart[r + 1] = rowSlotStart[r]! + rowCount[r]!;
  return { res, faceJMin, faceRowStart, rowIMin: Int32Array.from(rowIMin), rowCount: Int32Array.from(rowCount), rowSlotStart };
}
