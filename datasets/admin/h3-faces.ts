/**
 * The 20 faces of H3's icosahedron and the gnomonic hex grid H3 lays on each face.
 *
 * H3 assigns a point to a cell by (1) choosing the icosahedron face whose centre is nearest,
 * (2) projecting the point gnomonically onto that face's plane, in units of the resolution's
 * hex spacing, with the axes rotated by the aperture-7 angle at odd (Class III) resolutions, and
 * (3) rounding to the nearest hex centre. The result, (face, i, j), is H3's own "FaceIJK"
 * address of the cell; the 64-bit index is only a relabelling of it. We stop at FaceIJK so that a
 * lookup costs a few multiplications instead of an index encoding (h3-js needs about 1.3 µs per
 * `latLngToCell`). test/datasets/admin/h3-faces.test.ts checks the cells against h3-js.
 *
 * Constants: face centres (unit vectors and latitude/longitude, radians) and the azimuth from
 * each face centre to its vertex 0 (the Class II i-axis), as published by H3 (faceijk.c).
 */

/** Face centres on the unit sphere, x/y/z. */
const FACE_CENTER_POINT: readonly (readonly [number, number, number])[] = [
  [0.2199307791404606, 0.6583691780274996, 0.7198475378926182],
  [-0.2139234834501421, 0.1478171829550703, 0.9656017935214205],
  [0.1092625278784797, -0.481195157287321, 0.8697775121287253],
  [0.7428567301586791, -0.3593941678278028, 0.5648005936517033],
  [0.8112534709140969, 0.3448953237639384, 0.472138773641393],
  [-0.1055498149613921, 0.9794457296411413, 0.1718874610009365],
  [-0.8075407579970092, 0.1533552485898818, 0.5695261994882688],
  [-0.2846148069787907, -0.8644080972654206, 0.4144792552473539],
  [0.7405621473854482, -0.6673299564565524, -0.0789837646326737],
  [0.8512303986474293, 0.4722343788582681, -0.2289137388687808],
  [-0.7405621473854481, 0.6673299564565524, 0.0789837646326737],
  [-0.8512303986474292, -0.4722343788582682, 0.2289137388687808],
  [0.1055498149613919, -0.9794457296411413, -0.1718874610009365],
  [0.8075407579970092, -0.1533552485898819, -0.5695261994882688],
  [0.2846148069787908, 0.8644080972654204, -0.4144792552473539],
  [-0.7428567301586791, 0.3593941678278027, -0.5648005936517033],
  [-0.8112534709140971, -0.3448953237639382, -0.472138773641393],
  [-0.2199307791404607, -0.6583691780274996, -0.7198475378926182],
  [0.213923483450142, -0.1478171829550704, -0.9656017935214205],
  [-0.1092625278784796, 0.481195157287321, -0.8697775121287253],
];

/** Face centres, [latitude, longitude] in radians. */
const FACE_CENTER_GEO: readonly (readonly [number, number])[] = [
  [0.803582649718989942, 1.248397419617396099],
  [1.307747883455638156, 2.536945009877921159],
  [1.054751253523952054, -1.347517358900396623],
  [0.600191595538186799, -0.450603909469755746],
  [0.491715428198773866, 0.401988202911306943],
  [0.172745327415618701, 1.678146885280433686],
  [0.60592932157135069, 2.953923329812411617],
  [0.427370518328979641, -1.888876200336285401],
  [-0.079066118549212831, -0.733429513380867741],
  [-0.230961644455383637, 0.506495587332349035],
  [0.079066118549212831, 2.408163140208925497],
  [0.230961644455383637, -2.635097066257444203],
  [-0.172745327415618701, -1.463445768309359553],
  [-0.60592932157135069, -0.187669323777381622],
  [-0.427370518328979641, 1.252716453253507838],
  [-0.600191595538186799, 2.690988744120037492],
  [-0.491715428198773866, -2.739604450678486295],
  [-0.803582649718989942, -1.893195233972397139],
  [-1.307747883455638156, -0.60464764371187208],
  [-1.054751253523952054, 1.794075294689396615],
];

/** Azimuth (radians, clockwise from north) from each face centre to its vertex 0: the Class II i-axis. */
const FACE_AXIS_AZIMUTH: readonly number[] = [
  5.619958268523939882, 5.760339081714187279, 0.780213654393430055, 0.430469363979999913, 6.1302691233351114,
  2.692877706530642877, 2.982963003477243874, 3.532912002790141181, 3.494305004259568154, 3.003214169499538391,
  5.930472956509811562, 0.138378484090254847, 0.448714947059150361, 0.158629650112549365, 5.891865957979238535,
  2.711123289609793325, 3.294508837434268316, 3.804819692245439833, 3.664438879055192436, 2.361378999196363184,
];

/** tan of the resolution-0 hex spacing angle, inverted: gnomonic plane units per res-0 hex (H3). */
const INV_RES0_U_GNOMONIC = 2.61803398874989588842;
/** The aperture-7 rotation between Class II and Class III grids, atan(√3/5), radians. */
const AP7_ROT_RADS = Math.atan(Math.sqrt(3) / 5);
const SIN60 = Math.sqrt(3) / 2;

export const FACE_COUNT = 20;

/** Per-face projection basis for one resolution: x = (p·u)/(p·n) and y = (p·w)/(p·n), in hex units. */
export interface FaceBasis {
  n: Float64Array;
  /** Unit tangent vectors of the (possibly Class III rotated) x and y axes. */
  u: Float64Array;
  w: Float64Array;
  /** Hex units per gnomonic plane unit at this resolution. */
  scale: number;
}

/** Projection bases of the 20 faces at resolution `res` (0..15). */
export function faceBases(res: number): FaceBasis[] {
  const scale = INV_RES0_U_GNOMONIC * Math.pow(Math.sqrt(7), res);
  const rot = res % 2 === 1 ? AP7_ROT_RADS : 0;
  const out: FaceBasis[] = [];
  for (let f = 0; f < FACE_COUNT; f++) {
    const [lat, lon] = FACE_CENTER_GEO[f]!;
    const north = [-Math.sin(lat) * Math.cos(lon), -Math.sin(lat) * Math.sin(lon), Math.cos(lat)];
    const east = [-Math.sin(lon), Math.cos(lon), 0];
    const az = FACE_AXIS_AZIMUTH[f]!;
    // Class II axes: x along azimuth az (the i-axis), y along azimuth az - 90° (counter-clockwise).
    const x2 = north.map((nv, k) => Math.cos(az) * nv + Math.sin(az) * east[k]!);
    const y2 = north.map((nv, k) => Math.sin(az) * nv - Math.cos(az) * east[k]!);
    // Class III: theta' = theta - rot, i.e. rotate the axes by +rot.
    const u = x2.map((xv, k) => Math.cos(rot) * xv + Math.sin(rot) * y2[k]!);
    const w = x2.map((xv, k) => Math.cos(rot) * y2[k]! - Math.sin(rot) * xv);
    out.push({ n: Float64Array.from(FACE_CENTER_POINT[f]!), u: Float64Array.from(u), w: Float64Array.from(w), scale });
  }
  return out;
}

const CENTERS_FLAT = Float64Array.from(FACE_CENTER_POINT.flat());

/** The face H3 uses for a unit vector: the one with the nearest centre (first one on a tie). */
export function nearestFace(px: number, py: number, pz: number): number {
  const c = CENTERS_FLAT;
  let best = 0;
  let bestDot = -2;
  for (let f = 0, o = 0; f < FACE_COUNT; f++, o += 3) {
    const d = c[o]! * px + c[o + 1]! * py + c[o + 2]! * pz;
    if (d > bestDot) {
      bestDot = d;
      best = f;
    }
  }
  return best;
}

/** Axial hex coordinates (i, j) of the hex containing plane point (x, y); H3's IJK with k = 0. */
export function roundHex(x: number, y: number, out: Int32Array): void {
  const jf = y / SIN60;
  const iF = x + jf / 2;
  // Cube rounding in the 60° basis (e_i, e_i + e_j): q = i - j, r = j, s = -i.
  const q = iF - jf;
  const r = jf;
  const s = -iF;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  out[0] = rq + rr;
  out[1] = rr;
}

/** Plane coordinates (hex units) of the centre of hex (i, j). */
export function hexCenter(i: number, j: number): [number, number] {
  return [i - j / 2, j * SIN60];
}

/** The unit-sphere point of plane point (x, y) of a face (inverse gnomonic projection), as [lat, lon] degrees. */
export function planeToLatLon(basis: FaceBasis, x: number, y: number): [number, number] {
  const a = x / basis.scale;
  const b = y / basis.scale;
  const vx = basis.n[0]! + a * basis.u[0]! + b * basis.w[0]!;
  const vy = basis.n[1]! + a * basis.u[1]! + b * basis.w[1]!;
  const vz = basis.n[2]! + a * basis.u[2]! + b * basis.w[2]!;
  const len = Math.hypot(vx, vy, vz);
  return [(Math.asin(vz / len) * 180) / Math.PI, (Math.atan2(vy, vx) * 180) / Math.PI];
}

/** The six neighbour offsets of a hex in axial (i, j). */
export const HEX_NEIGHBORS: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
];

/** Vertex offsets of a hex (circumradius 1/√3) in plane units, between the neighbour directions. */
export const HEX_VERTICES: readonly (readonly [number, number])[] = Array.from({ length: 6 }, (_, k) => {
  const ang = ((30 + 60 * k) * Math.PI) / 180;
  return [Math.cos(ang) / Math.sqrt(3), Math.sin(ang) / Math.sqrt(3)] as const;
});
