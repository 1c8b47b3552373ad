/**
 * GeoNames `alternateNamesV2.txt`: tab-separated, 10 columns (the older `alternateNames.txt` has
 * the first 8): alternateNameId, geonameid, isolanguage, alternate name, isPreferredName,
 * isShortName, isColloquial, isHistoric, from, to. Flags are "1" or empty.
 * `isolanguage` is an ISO 639 code, empty, or a pseudo-language: post (postal code), link (URL),
 * wkdt (Wikidata id), iata/icao/faac (airport codes), abbr, unlc, tcid, fr_1793, phon, piny.
 */

export interface AlternateNameRecord {
  geonameId: number;
  language: string;
  name: string;
  preferred: boolean;
  short: boolean;
  colloquial: boolean;
  historic: boolean;
}

/** Pseudo-languages that are not names of the place (URLs, ids, postal codes, transcriptions). */
export const NOT_NAMES: ReadonlySet<string> = new Set(["link", "wkdt", "post", "unlc", "tcid", "phon", "piny", "uicn"]);

/** Pseudo-languages that are codes: matched exactly only, like historic names. */
export const CODE_LANGUAGES: ReadonlySet<string> = new Set(["iata", "icao", "faac", "abbr"]);

const FLAG = /^1?$/;

export function parseAlternateNameLine(line: string): AlternateNameRecord | null | string {
  if (line === "") return null;
  const f = line.split("\t");
  if (f.length !== 10 && f.length !== 8) return `10 tab-separated columns (8 for the old alternateNames.txt), got ${f.length}`;
  const [id, geonameId, language, name, preferred, short, colloquial, historic] = f as [string, string, string, string, string, string, string, string];
  if (!/^\d+$/.test(id)) return `an alternate name id in column 1, got ${JSON.stringify(id)}`;
  if (!/^[1-9]\d{0,9}$/.test(geonameId)) return `a GeoNames id in column 2, got ${JSON.stringify(geonameId)}`;
  if (name === "") return "a name in column 4, got nothing";
  for (const [col, v] of [[5, preferred], [6, short], [7, colloquial], [8, historic]] as const) {
    if (!FLAG.test(v)) return `a flag ("1" or empty) in column ${col}, got ${JSON.stringify(v)}`;
  }
  return {
    geonameId: Number(geonameId),
    language,
    name,
    preferred: preferred === "1",
    short: short === "1",
    colloquial: colloquial === "1",
    historic: historic === "1",
  };
}
