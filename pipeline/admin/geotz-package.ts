/**
 * Reads the timezone-boundary-builder polygons as packaged by the geo-tz npm package (its full
 * product `timezones.geojson.{index.json,geo.dat}`): a quadtree whose leaves are either a list of
 * zones covering the whole quad or a byte range of geo.dat holding a geobuf FeatureCollection of
 * the zones' polygons clipped to the quad. Quads absent from the tree are open sea.
 *
 * The clipping adds artificial edges along quad boundaries. We merge all pieces of a zone and
 * drop those edges by their even-odd sum: on each quad boundary line, the intervals contributed
 * by the pieces (and full quads) of one zone are XOR-ed, so a line with the zone on both sides
 * cancels and a real border that runs along the line survives. What remains is exactly the
 * mod-2 boundary of the zone's region, which is all an even-odd point-in-polygon test needs.
 *
 * Coordinates in geo.dat are integers / 1e6 (geobuf precision 6); geo-tz clamps queries to
 * ±179.9999 / ±89.9999, so vertices on those world edges are moved to ±180 / ±90 (same answers).
 */
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { DataFormatError, MissingInputError } from "../../datasets/common/errors.ts";

const require = createRequire(import.meta.url);

interface GeobufGeometry {
  type: string;
  coordinates: number[][][] | number[][][][];
}
interface GeobufFeatureCollection {
  features: { properties?: { tzid?: string }; geometry: GeobufGeometry }[];
}
type PbfCtor = new (buf: Uint8Array) => unknown;
const geobuf = require("geobuf") as { decode(pbf: unknown): GeobufFeatureCollection };
const Pbf = require("pbf") as PbfCtor;

export interface ZoneChains {
  tzid: string;
  /** Chains [lon, lat, ...]: the zone's boundary pieces (not necessarily closed rings). */
  chains: Float64Array[];
}

/** Largest extent, in degrees, of a polygon that may be an enclave (Baarle's are below 0.02°). */
export const SMALL_POLYGON_DEGREES = 0.1;

interface QuadNode {
  pos?: number;
  len?: number;
  [key: string]: unknown;
}

const SCALE = 1e6;
const WORLD_X = 179.9999;
const WORLD_Y = 89.9999;

function snap(v: number, world: number, edge: number): number {
  if (v >= world - 5e-7) return edge;
  if (v <= -world + 5e-7) return -edge;
  return v;
}

/** The files of geo-tz's full product inside a directory (node_modules/geo-tz/data). */
export function geoTzFiles(dir: string): { index: string; data: string } {
  return { index: path.join(dir, "timezones.geojson.index.json"), data: path.join(dir, "timezones.geojson.geo.dat") };
}

class ZoneAccumulator {
  readonly chains: Float64Array[] = [];
  /** Line key ("x:<µdeg>" or "y:<µdeg>") → interval endpoints in µdeg along the line. */
  readonly lines = new Map<string, number[]>();

  addInterval(key: string, a: number, b: number): void {
    let list = this.lines.get(key);
    if (!list) this.lines.set(key, (list = []));
    list.push(a, b);
  }

  /** The XOR of the intervals on every line, as two-vertex chains. */
  lineChains(): Float64Array[] {
    const out: Float64Array[] = [];
    for (const [key, ends] of this.lines) {
      ends.sort((p, q) => p - q);
      const at = Number(key.slice(2)) / SCALE;
      let parity = 0;
      let openAt = 0;
      for (let k = 0; k < ends.length; k++) {
        const v = ends[k]!;
        // Equal endpoints toggle twice: skip them together.
        if (k + 1 < ends.length && ends[k + 1] === v) {
          k++;
          continue;
        }
        parity ^= 1;
        if (parity === 1) openAt = v;
        else if (v > openAt) {
          const lo = openAt / SCALE;
          const hi = v / SCALE;
          out.push(key[0] === "x" ? Float64Array.of(at, lo, at, hi) : Float64Array.of(lo, at, hi, at));
        }
      }
    }
    return out;
  }
}

function onLine(v1: number, v2: number, line: number): boolean {
  return Math.abs(v1 - line) <= 1e-6 && Math.abs(v2 - line) <= 1e-6;
}

/** Reads and merges the package's pieces; zones in alphabetical order of tzid. */
export async function readGeoTzPackage(dir: string): Promise<{ zones: ZoneChains[]; pieces: number; quads: number }> {
  const files = geoTzFiles(dir);
  let indexText: string;
  let dat: Buffer;
  try {
    indexText = await fs.readFile(files.index, "utf8");
    dat = await fs.readFile(files.data);
  } catch {
    throw new MissingInputError(`${files.index} + ${files.data}`, "geo-tz timezone data (full product)");
  }
  let index: { timezones?: unknown; lookup?: unknown };
  try {
    index = JSON.parse(indexText) as typeof index;
  } catch (err) {
    throw new DataFormatError({ file: files.index }, "JSON", (err as Error).message);
  }
  if (!Array.isArray(index.timezones) || typeof index.lookup !== "object" || index.lookup === null) {
    throw new DataFormatError({ file: files.index }, "an object with timezones[] and lookup", Object.keys(index).join(","));
  }
  const names = index.timezones as string[];
  const zoneOf = new Map<string, number>(names.map((n, k) => [n, k]));
  const acc = names.map(() => new ZoneAccumulator());
  let pieces = 0;
  let quads = 0;

  const addQuadEdges = (z: ZoneAccumulator, top: number, bottom: number, left: number, right: number): void => {
    const t = Math.round(snap(top, WORLD_Y, 90) * SCALE);
    const b = Math.round(snap(bottom, WORLD_Y, 90) * SCALE);
    const l = Math.round(snap(left, WORLD_X, 180) * SCALE);
    const r = Math.round(snap(right, WORLD_X, 180) * SCALE);
    z.addInterval(`x:${l}`, b, t);
    z.addInterval(`x:${r}`, b, t);
    z.addInterval(`y:${b}`, l, r);
    z.addInterval(`y:${t}`, l, r);
  };

  const addPiece = (node: QuadNode, where: string, top: number, bottom: number, left: number, right: number): void => {
    const pos = node.pos!;
    const len = node.len!;
    if (pos + len > dat.length) throw new DataFormatError({ file: files.data, offset: pos }, `${len} bytes of quad ${where}`, `a file of ${dat.length} bytes`);
    let fc: GeobufFeatureCollection;
    try {
      fc = geobuf.decode(new Pbf(dat.subarray(pos, pos + len)));
    } catch (err) {
      throw new DataFormatError({ file: files.data, offset: pos }, `a geobuf FeatureCollection (quad ${where})`, (err as Error).message);
    }
    for (const f of fc.features) {
      const tzid = f.properties?.tzid;
      const zi = tzid === undefined ? undefined : zoneOf.get(tzid);
      if (zi === undefined) throw new DataFormatError({ file: files.data, offset: pos, field: "tzid" }, "a zone listed in the index", String(tzid));
      const z = acc[zi]!;
      const polys = (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates) as number[][][][];
      for (const poly of polys) {
        for (const ring of poly) {
          pieces++;
          let chain: number[] = [];
          const flush = (): void => {
            if (chain.length >= 4) z.chains.push(Float64Array.from(chain));
            chain = [];
          };
          for (let k = 0; k + 1 < ring.length; k++) {
            const x1 = snap(ring[k]![0]!, WORLD_X, 180);
            const y1 = snap(ring[k]![1]!, WORLD_Y, 90);
            const x2 = snap(ring[k + 1]![0]!, WORLD_X, 180);
            const y2 = snap(ring[k + 1]![1]!, WORLD_Y, 90);
            const lineX = [left, right].map((v) => snap(v, WORLD_X, 180)).find((v) => onLine(x1, x2, v));
            const lineY = [bottom, top].map((v) => snap(v, WORLD_Y, 90)).find((v) => onLine(y1, y2, v));
            if (lineX !== undefined || lineY !== undefined) {
              flush();
              if (lineX !== undefined) z.addInterval(`x:${Math.round(lineX * SCALE)}`, Math.round(Math.min(y1, y2) * SCALE), Math.round(Math.max(y1, y2) * SCALE));
              else z.addInterval(`y:${Math.round(lineY! * SCALE)}`, Math.round(Math.min(x1, x2) * SCALE), Math.round(Math.max(x1, x2) * SCALE));
              continue;
            }
            if (chain.length === 0) chain.push(x1, y1);
            chain.push(x2, y2);
          }
          flush();
        }
      }
    }
  };

  const walk = (node: QuadNode, where: string, top: number, bottom: number, left: number, right: number): void => {
    const midLat = (top + bottom) / 2;
    const midLon = (left + right) / 2;
    const children: [string, number, number, number, number][] = [
      ["a", top, midLat, midLon, right],
      ["b", top, midLat, left, midLon],
      ["c", midLat, bottom, left, midLon],
      ["d", midLat, bottom, midLon, right],
    ];
    for (const [key, t, b, l, r] of children) {
      const child = node[key] as QuadNode | number[] | undefined;
      if (child === undefined) continue;
      if (Array.isArray(child)) {
        quads++;
        for (const zi of child) {
          const z = acc[zi];
          if (!z) throw new DataFormatError({ file: files.index, field: `lookup.${where}${key}` }, `zone numbers below ${names.length}`, String(zi));
          addQuadEdges(z, t, b, l, r);
        }
      } else if (typeof child.pos === "number" && typeof child.len === "number") addPiece(child, where + key, t, b, l, r);
      else if (typeof child === "object" && child !== null) walk(child, where + key, t, b, l, r);
      else throw new DataFormatError({ file: files.index, field: `lookup.${where}${key}` }, "a quad node", JSON.stringify(child));
    }
  };
  walk(index.lookup as QuadNode, "", WORLD_Y, -WORLD_Y, -WORLD_X, WORLD_X);
  // Alphabetical order (the index's is not quite): where zones overlap, the first one answers.
  const zones = names.map((tzid, k) => ({ tzid, chains: [...acc[k]!.chains, ...acc[k]!.lineChains()] })).sort((a, b) => (a.tzid < b.tzid ? -1 : 1));
  return { zones, pieces, quads };
}
