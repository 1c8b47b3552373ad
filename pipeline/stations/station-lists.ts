/**
 * Station metadata from the two real lists:
 * - NOAA `nsd_cccc.txt`: `ICAO|block|number|name|state|country|region|lat|lon|ua lat|ua lon|elev|ua elev|RBSN`
 *   (some US lines have 12 fields: `...|lat|lon|elev||`) with coordinates as `DD-MM[-SS]H` and WMO block/number `--`/`---` when the station has none.
 *   Some lines are shorter or have a coordinate without hemisphere: those coordinates are left
 *   unknown (counted), never guessed.
 * - `wmo_stations.csv` (metview station database): `wmo_index,lat,lon,elev_m,barometer_elev_m,flags,name`
 *   with decimal degrees and the index written without leading zero. It has no country.
 * The two are joined on the WMO index; NOAA's name/country/ICAO win, WMO coordinates fill gaps.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { StationMeta } from "../../datasets/stations/schema.ts";
import { readCsvRows } from "./ingest/csv-rows.ts";

const RE_DMS = /^(\d{1,3})-(\d{1,2})(?:-(\d{1,2}))?([NSEW])$/;

/** `48-56-26N` to decimal degrees (south and west negative); undefined when malformed. */
export function parseDms(text: string): number | undefined {
  const m = RE_DMS.exec(text.trim());
  if (!m) return undefined;
  const v = Number(m[1]) + Number(m[2]) / 60 + (m[3] ? Number(m[3]) / 3600 : 0);
  const limit = m[4] === "N" || m[4] === "S" ? 90 : 180;
  if (v > limit || Number(m[2]) >= 60) return undefined;
  const signed = m[4] === "S" || m[4] === "W" ? -v : v;
  return Math.round(signed * 1e5) / 1e5;
}

export interface ListReadResult {
  stations: StationMeta[];
  /** Lines whose coordinates could not be read (kept without coordinates). */
  badCoordinates: number;
}

export function readNsdCccc(content: string, file: string): ListReadResult {
  const stations: StationMeta[] = [];
  let badCoordinates = 0;
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const f = line.split("|");
    if (f.length < 9) throw new DataFormatError({ file, line: i + 1 }, "at least 9 '|'-separated fields", `${f.length}`);
    const icao = f[0]!.trim();
    if (!/^[A-Z0-9]{4}$/.test(icao)) throw new DataFormatError({ file, line: i + 1, field: "ICAO" }, "a four-character ICAO identifier", JSON.stringify(icao));
    const block = f[1]!.trim();
    const number = f[2]!.trim();
    // Block 00 does not exist (WMO blocks are 01-99): `00|000` is a placeholder (PABL).
    const wmo = /^\d{2}$/.test(block) && block !== "00" && /^\d{3}$/.test(number) ? block + number : null;
    const lat = parseDms(f[7]!);
    const lon = parseDms(f[8]!);
    if (lat === undefined || lon === undefined) badCoordinates++;
    // 12-field lines (US stations without upper-air fields) carry the elevation in field 10.
    const elevField = f.length >= 14 ? f[11] : f[9];
    const elev = elevField !== undefined && /^-?\d+(\.\d+)?$/.test(elevField.trim()) ? Number(elevField) : null;
    stations.push({
      icao,
      wmo,
      name: f[3]!.trim() || null,
      country: f[5]!.trim() || null,
      latitude: lat ?? null,
      longitude: lon ?? null,
      elevation: elev,
    });
  }
  return { stations, badCoordinates };
}

export async function readWmoStations(content: string, file: string): Promise<ListReadResult> {
  const rows = await readCsvRows(content, file);
  const header = rows[0]?.fields ?? [];
  const expected = ["wmo_index", "lat", "lon", "elev_m"];
  for (const [k, name] of expected.entries()) {
    if (header[k] !== name) throw new DataFormatError({ file, line: 1, field: `column ${k + 1}` }, name, JSON.stringify(header[k] ?? ""));
  }
  const nameAt = header.indexOf("name");
  const stations: StationMeta[] = [];
  let badCoordinates = 0;
  for (const { fields: f, line } of rows.slice(1)) {
    if (f.length === 1 && f[0]!.trim() === "") continue;
    const index = f[0]!.trim();
    if (!/^\d{1,5}$/.test(index)) throw new DataFormatError({ file, line, field: "wmo_index" }, "a WMO index of 1 to 5 digits", JSON.stringify(index));
    const lat = Number(f[1]);
    const lon = Number(f[2]);
    const okCoords = f[1] !== "" && f[2] !== "" && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
    if (!okCoords) badCoordinates++;
    const elev = f[3] !== undefined && f[3] !== "" && Number.isFinite(Number(f[3])) ? Number(f[3]) : null;
    stations.push({
      icao: null,
      wmo: index.padStart(5, "0"),
      name: nameAt >= 0 ? f[nameAt]?.trim() || null : null,
      country: null,
      latitude: okCoords ? lat : null,
      longitude: okCoords ? lon : null,
      elevation: elev,
    });
  }
  return { stations, badCoordinates };
}

/**
 * One row per station: every NOAA entry, then WMO stations NOAA does not have. A NOAA entry with
 * a WMO index but unreadable coordinates takes the WMO list's coordinates.
 */
export function joinStationLists(noaa: readonly StationMeta[], wmo: readonly StationMeta[]): StationMeta[] {
  const wmoByIndex = new Map<string, StationMeta>();
  for (const s of wmo) if (s.wmo !== null && !wmoByIndex.has(s.wmo)) wmoByIndex.set(s.wmo, s);
  const out: StationMeta[] = [];
  const covered = new Set<string>();
  for (const s of noaa) {
    const row = { ...s };
    if (s.wmo !== null) {
      covered.add(s.wmo);
      const w = wmoByIndex.get(s.wmo);
      if (w && (row.latitude === null || row.longitude === null)) {
        row.latitude = w.latitude;
        row.longitude = w.longitude;
      }
      if (w && row.elevation === null) row.elevation = w.elevation;
    }
    out.push(row);
  }
  for (const s of wmo) if (s.wmo !== null && !covered.has(s.wmo)) {
    covered.add(s.wmo);
    out.push(s);
  }
  return out;
}
