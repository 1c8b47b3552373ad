/**
 * Where the reporting stations are (FORMAT.md, "Located stations"): the stations of the station
 * lists with coordinates and a height that have observations, grouped by 1° cell at build time.
 * `encodeLocated` is the writer's half; `LocatedStations` the reader's, resident (28 bytes a
 * station plus 8 a cell): a point's query looks up the cells around it by binary search.
 */
import { DataFormatError } from "../common/errors.ts";
import type { ObservationKind } from "./record.ts";
import { firstAtLeast } from "../common/first-at-least.ts";

/** The 1° cell of (latCell, lonCell) = floor of the degrees; longitudes wrap. */
export function cellKey(latCell: number, lonCell: number): number {
  return (latCell + 90) * 360 + (((lonCell % 360) + 360) % 360);
}

/** `ref` of a SYNOP station: this bit set, the low bits its SYNOP directory entry. */
const SYNOP_BIT = 0x80000000;

/** A station as the writer sees it: its family's directory entry and its place. */
export interface LocatedInput {
  kind: ObservationKind;
  /** Entry in the family's directory (station-directory.ts). */
  entry: number;
  lat: number;
  lon: number;
  /** Metres above sea level. */
  elevation: number;
}

export interface LocatedSections {
  cells: Uint32Array;
  cellStart: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  elevation: Float64Array;
  ref: Uint32Array;
}

/** The sections: stations ordered by cell (stable: the input's order within a cell). */
export function encodeLocated(stations: readonly LocatedInput[]): LocatedSections {
  const keyed = stations.map((s, i) => ({ s, i, key: cellKey(Math.floor(s.lat), Math.floor(s.lon)) }));
  keyed.sort((a, b) => a.key - b.key || a.i - b.i);
  const n = keyed.length;
  const out: LocatedSections = { cells: new Uint32Array(0), cellStart: new Uint32Array(0), lat: new Float64Array(n), lon: new Float64Array(n), elevation: new Float64Array(n), ref: new Uint32Array(n) };
  const cells: number[] = [];
  const starts: number[] = [];
  keyed.forEach(({ s, key }, k) => {
    if (cells[cells.length - 1] !== key) {
      cells.push(key);
      starts.push(k);
    }
    out.lat[k] = s.lat;
    out.lon[k] = s.lon;
    out.elevation[k] = s.elevation;
    out.ref[k] = s.kind === "SYNOP" ? (SYNOP_BIT | s.entry) >>> 0 : s.entry;
  });
  starts.push(n);
  out.cells = Uint32Array.from(cells);
  out.cellStart = Uint32Array.from(starts);
  return out;
}

export class LocatedStations {
  constructor(private readonly t: LocatedSections, file: string, entries: Readonly<Record<ObservationKind, number>>) {
    const n = t.lat.length;
    const fail = (field: string, expected: string, got: string | number): never => {
      throw new DataFormatError({ file, field: `located.${field}` }, expected, String(got));
    };
    if (t.lon.length !== n || t.elevation.length !== n || t.ref.length !== n) fail("lon", `${n} stations in every column`, `${t.lon.length}/${t.elevation.length}/${t.ref.length}`);
    if (t.cellStart.length !== t.cells.length + 1 || t.cellStart[0] !== 0 || t.cellStart[t.cells.length] !== n) fail("cellStart", `${t.cells.length + 1} starts from 0 to ${n}`, `${t.cellStart.length} starts`);
    for (let c = 1; c < t.cells.length; c++) {
      if (t.cells[c - 1]! >= t.cells[c]!) fail("cells", "ascending cells", `${t.cells[c - 1]} before ${t.cells[c]}`);
      if (t.cellStart[c]! < t.cellStart[c - 1]!) fail("cellStart", "ascending starts", `${t.cellStart[c]} after ${t.cellStart[c - 1]}`);
    }
    for (let k = 0; k < n; k++) {
      const kind = this.kind(k);
      if (this.entry(k) >= entries[kind]) fail("ref", `${kind} entries below ${entries[kind]}`, `${this.entry(k)} at ${k}`);
    }
  }

  get count(): number {
    return this.t.lat.length;
  }

  /** The stations of a cell: [start, end) of the columns, empty when none is in it. */
  cellRange(key: number): [number, number] {
    const { cells, cellStart } = this.t;
    const lo = firstAtLeast(cells, key);
    return lo < cells.length && cells[lo] === key ? [cellStart[lo]!, cellStart[lo + 1]!] : [0, 0];
  }

  lat(k: number): number {
    return this.t.lat[k]!;
  }

  lon(k: number): number {
    return this.t.lon[k]!;
  }

  elevation(k: number): number {
    return this.t.elevation[k]!;
  }

  kind(k: number): ObservationKind {
    return (this.t.ref[k]! & SYNOP_BIT) !== 0 ? "SYNOP" : "METAR";
  }

  /** The station's entry in its family's directory. */
  entry(k: number): number {
    return this.t.ref[k]! & ~SYNOP_BIT;
  }
}
