/**
 * Reads the timezone-boundary-builder release GeoJSON (`timezones-with-oceans.geojson.zip`, one
 * feature per zone with a `tzid` property; oceans are the Etc/GMT±N features) into zones sorted
 * by tzid, so that where zones overlap (disputed areas) the alphabetically first one answers,
 * as with the geo-tz package.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { readSource } from "../common/source.ts";
import { parseFeatureCollection } from "./geojson.ts";
import type { ZoneChains } from "./geotz-package.ts";

export function zonesFromGeojson(text: string, file: string): ZoneChains[] {
  const byId = new Map<string, ZoneChains>();
  parseFeatureCollection(text, file).forEach((f, k) => {
    const tzid = f.properties.tzid;
    if (typeof tzid !== "string" || tzid === "") throw new DataFormatError({ file, field: `features[${k}].properties.tzid` }, "a tzid string", String(tzid));
    let zone = byId.get(tzid);
    if (!zone) byId.set(tzid, (zone = { tzid, chains: [] }));
    zone.chains.push(...f.rings);
  });
  return [...byId.keys()].sort().map((tzid) => byId.get(tzid)!);
}

export async function readTimezoneGeojson(location: string, cacheDir: string, logger: Logger): Promise<ZoneChains[]> {
  const bytes = await readSource(location, { cacheDir, logger });
  return zonesFromGeojson(bytes.toString("utf8"), location);
}
