/**
 * Per slot: the reference point (the hex centre) and the longitude/latitude box that contains
 * every point the slot can receive, widened by a quarter of its size on each side (the hex edges
 * are great-circle arcs, slightly curved in longitude/latitude). Slots whose box would wrap
 * around the antimeridian or a pole are marked for the exact fallback instead.
 */
import { HEX_VERTICES, hexCenter, planeToLatLon } from "../../datasets/admin/h3-faces.ts";
import { COAST_TOLERANCE_KM } from "../../datasets/admin/exact.ts";
import { KM_PER_DEGREE } from "../../datasets/admin/polygon-layer.ts";
import type { SlotGrid } from "../../datasets/admin/slot-grid.ts";

export interface SlotGeometry {
  /** Per slot: reference lon, lat. */
  center: Float64Array;
  /** Per slot: min lon, min lat, max lon, max lat. */
  box: Float64Array;
  /** The box widened by the coast tolerance (COAST_TOLERANCE_KM), for the admin layer's edges. */
  adminBox: Float64Array;
  /** Per slot: 1 when the slot is answered by the exact fallback. */
  fallback: Uint8Array;
  face: Uint8Array;
  i: Int32Array;
  j: Int32Array;
}

/** Boxes wider than this many degrees of longitude are left to the fallback (poles, antimeridian). */
const MAX_LON_SPAN = 30;

export function computeSlotGeometry(grid: SlotGrid): SlotGeometry {
  const n = grid.slotCount;
  const { face, i, j } = grid.coordinates();
  const center = new Float64Array(2 * n);
  const box = new Float64Array(4 * n);
  const adminBox = new Float64Array(4 * n);
  const fallback = new Uint8Array(n);
  const dLat = COAST_TOLERANCE_KM / KM_PER_DEGREE;
  for (let s = 0; s < n; s++) {
    const basis = grid.bases[face[s]!]!;
    const [cx, cy] = hexCenter(i[s]!, j[s]!);
    const [clat, clon] = planeToLatLon(basis, cx, cy);
    center[2 * s] = clon;
    center[2 * s + 1] = clat;
    let minX = clon;
    let maxX = clon;
    let minY = clat;
    let maxY = clat;
    for (let k = 0; k < 6; k++) {
      const a = HEX_VERTICES[k]!;
      const b = HEX_VERTICES[(k + 1) % 6]!;
      for (const [px, py] of [
        [cx + a[0], cy + a[1]],
        [cx + (a[0] + b[0]) / 2, cy + (a[1] + b[1]) / 2],
      ] as const) {
        const [lat, lon] = planeToLatLon(basis, px, py);
        if (lon < minX) minX = lon;
        if (lon > maxX) maxX = lon;
        if (lat < minY) minY = lat;
        if (lat > maxY) maxY = lat;
      }
    }
    if (maxX - minX > MAX_LON_SPAN || maxY > 89.5 || minY < -89.5) {
      fallback[s] = 1;
    }
    const mx = (maxX - minX) * 0.25 + 1e-9;
    const my = (maxY - minY) * 0.25 + 1e-9;
    box[4 * s] = minX - mx;
    box[4 * s + 1] = minY - my;
    box[4 * s + 2] = maxX + mx;
    box[4 * s + 3] = maxY + my;
    const dLon = dLat / Math.max(0.01, Math.cos((Math.min(89.9, Math.max(Math.abs(box[4 * s + 1]!), Math.abs(box[4 * s + 3]!))) * Math.PI) / 180));
    adminBox[4 * s] = box[4 * s]! - dLon;
    adminBox[4 * s + 1] = box[4 * s + 1]! - dLat;
    adminBox[4 * s + 2] = box[4 * s + 2]! + dLon;
    adminBox[4 * s + 3] = box[4 * s + 3]! + dLat;
  }
  return { center, box, adminBox, fallback, face, i, j };
}
