/**
 * Streams GeoNames place dumps (and, when given, alternateNamesV2) once, validating each row,
 * and writes two staging TSV files for DuckDB: `places.tsv` (the full record plus our indexes and
 * importance) and `names.tsv` (one row per name with its folded key). Only counters and the small
 * feature/timezone tables stay in memory, so the full 13-million-row allCountries fits in bounded
 * memory. Several dumps merge by GeoNames id, the later dump winning entirely (a newer snapshot's
 * names, population, codes and date): they are read newest first, and a row whose id a later dump
 * already gave is skipped as replaced (a bitmap of ids, no rows held).
 */
import path from "node:path";
import type { Logger } from "../../datasets/common/log.ts";
import { foldName } from "../../datasets/places/fold.ts";
import type { FeatureEntry } from "../../datasets/places/index-format.ts";
import { openSource, type SourceOptions } from "../common/source.ts";
import { readLineBatches } from "../common/line-batches.ts";
import { Progress } from "../common/progress.ts";
import { CODE_LANGUAGES, NOT_NAMES, parseAlternateNameLine } from "./alternate-names.ts";
import { parseGeonameLine } from "./geoname-row.ts";
import { importanceOf } from "../../datasets/places/importance.ts";
import type { MalformedRows } from "./malformed.ts";
import { SeenIds } from "./seen-ids.ts";
import { TsvWriter } from "./tsv-writer.ts";

export interface StageInput {
  /** Place dumps, oldest first. */
  placesLocations: readonly string[];
  alternateNamesLocation?: string;
  sourceOptions: SourceOptions;
  /** ISO2 → index into the country table. */
  countryIndex: ReadonlyMap<string, number>;
  /** "CC.code" → index into the admin-1 table. */
  admin1Index: ReadonlyMap<string, number>;
  /** GeoNames id of a country or admin-1 area → where to add alternate names as qualifier aliases. */
  aliasTargets: ReadonlyMap<number, { kind: "country" | "admin1"; index: number }>;
  stagingDir: string;
  malformed: MalformedRows;
  logger: Logger;
}

export interface StagedPlaces {
  placesTsv: string;
  namesTsv: string;
  places: number;
  names: number;
  alternateNameRows: number;
  /** Rows without a country code (oceans, international features): left out. */
  withoutCountry: number;
  /** Rows whose country code is not in countryInfo: left out (a point needs its country). */
  unknownCountry: number;
  duplicates: number;
  countryCounts: Uint32Array;
  admin1Counts: Uint32Array;
  features: FeatureEntry[];
  timezones: string[];
  /** Alternate names of countries and admin-1 areas (from alternateNamesV2), folded. */
  aliases: { kind: "country" | "admin1"; index: number; key: string }[];
  /** Rows whose admin-1 code (neither empty nor GeoNames' "00") is not in admin1CodesASCII: no admin-1. */
  staleAdmin1: number;
  staleAdmin1ByCountry: Record<string, number>;
  /** Rows with admin-1 code "00" (GeoNames: no admin-1 assigned) and no "CC.00" row in admin1CodesASCII. */
  admin1Unassigned: number;
  /** Rows of earlier dumps replaced by a later dump's row with the same id. */
  replaced: number;
  /** "CC.admin2" → the admin-1 index most of the places with that admin-2 code carry (Natural Earth's finer areas). */
  admin2ToAdmin1: Map<string, number>;
  /** One entry per dump, in the order given. */
  dumps: PlaceDump[];
  alternateNamesSource?: { displayName: string; localPath: string };
}

export interface PlaceDump {
  location: string;
  displayName: string;
  localPath: string;
  /** Valid rows read (malformed and in-dump duplicate rows excluded). */
  rows: number;
  /** Rows in the gazetteer (not replaced, with a known country). */
  kept: number;
  /** Rows a later dump replaced. */
  replaced: number;
  /** Newest modification date among the dump's rows (YYYY-MM-DD). */
  newest?: string;
}

export async function stagePlaces(input: StageInput): Promise<StagedPlaces> {
  const placesOut = new TsvWriter(path.join(input.stagingDir, "places.tsv"));
  const namesOut = new TsvWriter(path.join(input.stagingDir, "names.tsv"));
  const countryCounts = new Uint32Array(Math.max(1, input.countryIndex.size));
  const admin1Counts = new Uint32Array(Math.max(1, input.admin1Index.size));
  const featureIndex = new Map<string, number>();
  const features: FeatureEntry[] = [];
  const timezoneIndex = new Map<string, number>();
  const timezones: string[] = [];
  const later = new SeenIds();
  let withoutCountry = 0;
  let duplicates = 0;
  let unknownCountry = 0;
  let staleAdmin1 = 0;
  let admin1Unassigned = 0;
  const staleByCountry = new Map<string, number>();
  const dumps: PlaceDump[] = [];
  const admin2Votes = new Map<string, Map<number, number>>();

  for (let d = input.placesLocations.length - 1; d >= 0; d--) {
    const location = input.placesLocations[d]!;
    const source = await openSource(location, input.sourceOptions);
    const dump: PlaceDump = { location, displayName: source.displayName, localPath: source.localPath, rows: 0, kept: 0, replaced: 0 };
    dumps.unshift(dump);
    const seen = new SeenIds();
    const progress = new Progress(input.logger, `read ${source.displayName}`, undefined, "rows");
    for await (const batch of readLineBatches(source.stream)) {
      progress.tick(batch.lines.length);
      for (let i = 0; i < batch.lines.length; i++) {
        const lineNumber = batch.firstLineNumber + i;
        const r = parseGeonameLine(batch.lines[i]!);
        if (r === null) continue;
        if (typeof r === "string") {
          input.malformed.record(source.displayName, lineNumber, r);
          continue;
        }
        if (seen.testAndSet(r.geonameId)) {
          duplicates++;
          input.malformed.record(source.displayName, lineNumber, `a unique GeoNames id, got ${r.geonameId} again`);
          continue;
        }
        dump.rows++;
        if (dump.newest === undefined || r.modified > dump.newest) dump.newest = r.modified;
        if (later.has(r.geonameId)) {
          dump.replaced++;
          continue;
        }
        if (r.countryCode === "") {
          withoutCountry++;
          continue;
        }
        const country = input.countryIndex.get(r.countryCode);
        if (country === undefined) {
          unknownCountry++;
          continue;
        }
        const admin1 = input.admin1Index.get(`${r.countryCode}.${r.admin1}`) ?? -1;
        if (admin1 < 0 && r.admin1 === "00") admin1Unassigned++;
        else if (admin1 < 0 && r.admin1 !== "") {
          // A code the admin-1 file no longer has (e.g. an older snapshot before a reform): no admin-1, no guess.
          staleAdmin1++;
          staleByCountry.set(r.countryCode, (staleByCountry.get(r.countryCode) ?? 0) + 1);
        }
        dump.kept++;
        const featureKey = `${r.featureClass}.${r.featureCode}`;
        let feature = featureIndex.get(featureKey);
        if (feature === undefined) {
          feature = features.length;
          featureIndex.set(featureKey, feature);
          features.push({ featureClass: r.featureClass, featureCode: r.featureCode });
        }
        let timezone = -1;
        if (r.timezone !== "") {
          let tz = timezoneIndex.get(r.timezone);
          if (tz === undefined) {
            tz = timezones.length;
            timezoneIndex.set(r.timezone, tz);
            timezones.push(r.timezone);
          }
          timezone = tz;
        }
        countryCounts[country]!++;
        if (admin1 >= 0) {
          admin1Counts[admin1]!++;
          if (r.admin2 !== "") vote(admin2Votes, `${r.countryCode}.${r.admin2}`, admin1);
        }
        const importance = importanceOf(r.featureClass, r.featureCode, r.population);
        const wait = placesOut.add([
          r.geonameId, r.name, r.asciiName, r.lat, r.lon, r.featureClass, r.featureCode, r.countryCode, r.cc2,
          r.admin1, r.admin2, r.admin3, r.admin4, r.population, r.elevation, r.dem, r.timezone, r.modified,
          importance, country, admin1, feature, timezone,
        ]);
        if (wait) await wait;
        // Columns as in the alternateNamesV2 rows below: id, name, key, source, language, four flags, weak.
        const nameRow = (name: string, kind: string): Promise<void> | undefined => {
          const key = foldName(name);
          if (key === "") return undefined;
          return namesOut.addLine(`${r.geonameId}\t${name}\t${key}\t${kind}\t\t0\t0\t0\t0\t0\n`);
        };
        const w1 = nameRow(r.name, "name");
        if (w1) await w1;
        if (r.asciiName !== "" && r.asciiName !== r.name) {
          const w2 = nameRow(r.asciiName, "asciiname");
          if (w2) await w2;
        }
        for (const alt of r.alternateNames) {
          if (alt === "") continue;
          const w3 = nameRow(alt, "alternatenames");
          if (w3) await w3;
        }
      }
    }
    progress.finish({ rows: dump.rows, kept: dump.kept, replaced: dump.replaced });
    if (d > 0) later.addAll(seen);
  }
  const staleAdmin1ByCountry = Object.fromEntries([...staleByCountry].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  input.logger.info("admin-1 codes not in admin1CodesASCII: places left without admin-1", { places: staleAdmin1, byCountry: staleAdmin1ByCountry });

  const aliases: StagedPlaces["aliases"] = [];
  let alternateNameRows = 0;
  let alternateNamesSource: StagedPlaces["alternateNamesSource"];
  if (input.alternateNamesLocation !== undefined) {
    // alternateNamesV2.zip also holds iso-languagecodes.txt: read the entry named like the archive.
    const zipName = /([^/\\?#]*alternateNames(?:V2)?)\.zip(?:[?#].*)?$/i.exec(input.alternateNamesLocation);
    const alt = await openSource(input.alternateNamesLocation, zipName ? { ...input.sourceOptions, entry: `${zipName[1]}.txt` } : input.sourceOptions);
    alternateNamesSource = { displayName: alt.displayName, localPath: alt.localPath };
    const altProgress = new Progress(input.logger, `read ${alt.displayName}`, undefined, "rows");
    for await (const batch of readLineBatches(alt.stream)) {
      altProgress.tick(batch.lines.length);
      for (let i = 0; i < batch.lines.length; i++) {
        const lineNumber = batch.firstLineNumber + i;
        const a = parseAlternateNameLine(batch.lines[i]!);
        if (a === null) continue;
        if (typeof a === "string") {
          input.malformed.record(alt.displayName, lineNumber, a);
          continue;
        }
        if (NOT_NAMES.has(a.language)) continue;
        const key = foldName(a.name);
        if (key === "") continue;
        const weak = a.historic || a.colloquial || CODE_LANGUAGES.has(a.language);
        alternateNameRows++;
        const target = input.aliasTargets.get(a.geonameId);
        if (target !== undefined && !weak) aliases.push({ ...target, key });
        const w = namesOut.add([
          a.geonameId, a.name, key, "alternateNamesV2", a.language,
          a.preferred ? 1 : 0, a.short ? 1 : 0, a.colloquial ? 1 : 0, a.historic ? 1 : 0, weak ? 1 : 0,
        ]);
        if (w) await w;
      }
    }
    altProgress.finish({ names: alternateNameRows });
  }
  await placesOut.finish();
  await namesOut.finish();
  return {
    placesTsv: placesOut.path,
    namesTsv: namesOut.path,
    places: placesOut.rows,
    names: namesOut.rows,
    alternateNameRows,
    withoutCountry,
    unknownCountry,
    duplicates,
    countryCounts,
    admin1Counts,
    features,
    timezones,
    aliases,
    staleAdmin1,
    staleAdmin1ByCountry,
    admin1Unassigned,
    replaced: dumps.reduce((n, d) => n + d.replaced, 0),
    admin2ToAdmin1: majorities(admin2Votes),
    dumps,
    ...(alternateNamesSource ? { alternateNamesSource } : {}),
  };
}

function vote(votes: Map<string, Map<number, number>>, key: string, admin1: number): void {
  let counts = votes.get(key);
  if (!counts) votes.set(key, (counts = new Map()));
  counts.set(admin1, (counts.get(admin1) ?? 0) + 1);
}

/** Each key's most voted admin-1 (ties: the smaller index, so the result does not depend on row order). */
function majorities(votes: Map<string, Map<number, number>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, counts] of votes) {
    let best = -1;
    let bestCount = 0;
    for (const [admin1, n] of counts) if (n > bestCount || (n === bestCount && admin1 < best)) [best, bestCount] = [admin1, n];
    out.set(key, best);
  }
  return out;
}
