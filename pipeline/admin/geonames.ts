/**
 * The GeoNames inputs of the admin-1 crosswalk: a place dump (cities500 or larger; only the
 * coordinates, country and admin-1 code are used) and admin1CodesASCII (the set of known codes).
 * Malformed rows fail the build with the file and line.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { parseAdmin1Line } from "../places/admin1-codes.ts";
import { parseGeonameLine } from "../places/geoname-row.ts";
import { openSource, readLines } from "../common/source.ts";
import type { CrosswalkPlace } from "./crosswalk.ts";

export async function readCrosswalkPlaces(location: string, cacheDir: string, logger: Logger): Promise<CrosswalkPlace[]> {
  const source = await openSource(location, { cacheDir, logger });
  const out: CrosswalkPlace[] = [];
  for await (const { line, lineNumber } of readLines(source.stream)) {
    const rec = parseGeonameLine(line);
    if (rec === null) continue;
    if (typeof rec === "string") throw new DataFormatError({ file: source.displayName, line: lineNumber }, rec.replace(/, got .*/, ""), rec.replace(/.*, got /, ""));
    out.push({ lat: rec.lat, lon: rec.lon, countryCode: rec.countryCode, admin1: rec.admin1, timezone: rec.timezone });
  }
  if (out.length === 0) throw new DataFormatError({ file: source.displayName }, "at least one place", "none");
  return out;
}

export async function readAdmin1CodeSet(location: string, cacheDir: string, logger: Logger): Promise<Set<string>> {
  const source = await openSource(location, { cacheDir, logger });
  const codes = new Set<string>();
  for await (const { line, lineNumber } of readLines(source.stream)) {
    const rec = parseAdmin1Line(line);
    if (rec === null) continue;
    if (typeof rec === "string") throw new DataFormatError({ file: source.displayName, line: lineNumber }, rec.replace(/, got .*/, ""), rec.replace(/.*, got /, ""));
    codes.add(rec.code);
  }
  return codes;
}
