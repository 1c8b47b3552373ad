/**
 * Pipeline step `admin`: Natural Earth admin-1 polygons + timezone-boundary-builder polygons →
 * `admin/admin.idx`, the H3-bucketed reverse-geocoding index (datasets/admin/FORMAT.md), with
 * admin-1 codes in GeoNames form from a crosswalk built on GeoNames places.
 */
import path from "node:path";
import { createRequire } from "node:module";
import type { AdminAttributes, AdminRefinement } from "../../datasets/admin/admin-index.ts";
import { COAST_TOLERANCE_KM } from "../../datasets/admin/exact.ts";
import { memoryAccess, nearestFeatureWithin } from "../../datasets/admin/polygon-layer.ts";
import { ADMIN_SPEC, encodeAdminPayload, openAdminIndex } from "../../datasets/admin/admin-file.ts";
import { buildMetadata, type EnvelopeInput, type SourceInfo } from "../../datasets/artifact/envelope.ts";
import { memorySource } from "../../datasets/common/byte-source.ts";
import { describeSourceFile } from "../../datasets/artifact/source-info.ts";
import { writeArtifact } from "../../datasets/artifact/write-artifact.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { EMBEDDED_DIR } from "../../datasets/common/paths.ts";
import { isUrl, localFileOf } from "../common/source.ts";
import { type PipelineStep, type StepContext, cacheDirOf } from "../common/step.ts";
import { buildIndex } from "./build-index.ts";
import { buildCrosswalk, zoneCountries, type RefinementPlace } from "./crosswalk.ts";
import { findEnclaves } from "./enclaves.ts";
import { FeatureGrid } from "./feature-grid.ts";
import { readAdmin1CodeSet, readCrosswalkPlaces } from "./geonames.ts";
import { geoTzFiles, readGeoTzPackage, type ZoneChains } from "./geotz-package.ts";
import { LayerBuilder } from "./layer-builder.ts";
import { readNaturalEarth } from "./naturalearth.ts";
import { encodeSlots } from "./records.ts";
import { readTimezoneGeojson } from "./timezones-geojson.ts";
import { validateIndex } from "./validate.ts";
import { buildWorldMap } from "./world-map.ts";
import { StepOptions } from "../common/options.ts";

export interface AdminArgs {
  naturalEarth: string;
  /** timezone-boundary-builder release GeoJSON (path or URL, .json/.geojson/.zip). */
  timezones?: string;
  /** Directory of geo-tz's packaged data (used when `timezones` is not given). */
  geoTzDir: string;
  places: string;
  admin1: string;
  res: number;
  validatePoints: number;
}

/** H3 resolution of the slot table when `--res` is not given: cells of about 250 km². */
export const DEFAULT_ADMIN_RES = 5;

const USAGE = `Options:
  --naturalearth <path|url>  Natural Earth 10m admin-1 states/provinces GeoJSON (.geojson, .gz or .zip)
  --timezones <path|url>     timezone-boundary-builder timezones-with-oceans.geojson(.zip) (nightly input)
  --geo-tz-dir <dir>         instead of --timezones: geo-tz's data directory (full product
                             timezones.geojson.index.json + .geo.dat; default: the installed package)
  --places <path|url>        GeoNames place dump for the admin-1 crosswalk (cities500 .txt/.zip/.gz)
  --admin1 <path|url>        GeoNames admin1CodesASCII.txt
  --res <n>                  H3 resolution of the slot table, 3 to 7 (default ${DEFAULT_ADMIN_RES})
  --validate <n>             random + border points checked against brute force (default 20000)
Writes admin/admin.idx under GEODATA_DATA_DIR.`;

export function defaultGeoTzDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports only its entry points: dist/find-1970.js, beside data/.
  return path.join(path.dirname(require.resolve("geo-tz")), "..", "data");
}

export function parseAdminArgs(args: readonly string[]): AdminArgs {
  const options = new StepOptions("admin", args, ["naturalearth", "timezones", "geo-tz-dir", "places", "admin1", "res", "validate"]);
  const timezones = options.get("timezones");
  return {
    naturalEarth: options.required("naturalearth"),
    ...(timezones ? { timezones } : {}),
    geoTzDir: options.get("geo-tz-dir") ?? defaultGeoTzDir(),
    places: options.required("places"),
    admin1: options.required("admin1"),
    res: options.int("res", DEFAULT_ADMIN_RES, 3, 7),
    validatePoints: options.int("validate", 20_000, 0, 10_000_000),
  };
}

async function describe(location: string, name: string, cacheDir: string): Promise<SourceInfo> {
  const info = await describeSourceFile(await localFileOf(location, { cacheDir }), name);
  return isUrl(location) ? { ...info, location } : info;
}

/** Refinement places in artifact form; admin feature ids are offset by the enclaves placed first. */
function refinementArrays(offset: number, neFeatures: number, refinements: Map<number, RefinementPlace[]>): { refinement: AdminRefinement; codes: string[] } {
  const featureStart = new Uint32Array(offset + neFeatures + 1);
  const lat: number[] = [];
  const lon: number[] = [];
  const code: number[] = [];
  const codes: string[] = [];
  const codeIds = new Map<string, number>();
  for (let f = 0; f < offset + neFeatures; f++) {
    featureStart[f] = lat.length;
    for (const p of f >= offset ? (refinements.get(f - offset) ?? []) : []) {
      let id = codeIds.get(p.code);
      if (id === undefined) {
        id = codes.length;
        codes.push(p.code);
        codeIds.set(p.code, id);
      }
      lat.push(p.lat);
      lon.push(p.lon);
      code.push(id);
    }
  }
  featureStart[offset + neFeatures] = lat.length;
  return { refinement: { featureStart, lat: Float64Array.from(lat), lon: Float64Array.from(lon), code: Uint32Array.from(code) }, codes };
}

export async function runAdmin(a: AdminArgs, ctx: StepContext): Promise<void> {
  const { config, logger } = ctx;
  const cacheDir = cacheDirOf(ctx, "downloads");
  const started = performance.now();

  const adminFeatures = await readNaturalEarth(a.naturalEarth, cacheDir, logger);
  const neBuilder = new LayerBuilder();
  for (const f of adminFeatures) neBuilder.add(f.rings);
  const neLayer = neBuilder.finish();
  logger.info("admin-1 polygons read", { features: adminFeatures.length, vertices: neLayer.xy.length / 2 });

  let zones: ZoneChains[];
  const sources: SourceInfo[] = [await describe(a.naturalEarth, "Natural Earth 10m admin-1 states and provinces", cacheDir)];
  if (a.timezones) {
    zones = await readTimezoneGeojson(a.timezones, cacheDir, logger);
    sources.push(await describe(a.timezones, "timezone-boundary-builder timezones-with-oceans", cacheDir));
  } else {
    const read = await readGeoTzPackage(a.geoTzDir);
    zones = read.zones;
    const files = geoTzFiles(a.geoTzDir);
    sources.push(await describeSourceFile(files.index, "geo-tz timezones.geojson.index.json (timezone-boundary-builder)"));
    sources.push(await describeSourceFile(files.data, "geo-tz timezones.geojson.geo.dat (timezone-boundary-builder)"));
    logger.info("geo-tz package read", { zones: zones.length, pieces: read.pieces, fullQuads: read.quads });
  }

  // Crosswalk: locate every GeoNames place in the Natural Earth polygons.
  const places = await readCrosswalkPlaces(a.places, cacheDir, logger);
  const codes = await readAdmin1CodeSet(a.admin1, cacheDir, logger);
  sources.push(await describe(a.places, "GeoNames places (admin-1 crosswalk, zone countries)", cacheDir));
  sources.push(await describe(a.admin1, "GeoNames admin1CodesASCII", cacheDir));
  const neAccess = memoryAccess(neLayer);
  const neGrid = new FeatureGrid(neAccess);
  // A place off Natural Earth's generalized coast but within the territorial sea counts for the
  // area the lookup gives it (the nearest): Svalbard's places (SJ), Longyearbyen among them, all lie
  // in its fjords beyond the 10m coastline, and without them the area kept Natural Earth's NO.
  const crosswalk = buildCrosswalk(adminFeatures, places, (lat, lon) => neGrid.locate(lon, lat) ?? nearestFeatureWithin(neAccess, lon, lat, COAST_TOLERANCE_KM), codes);
  const report = crosswalk.report;
  logger.info("admin-1 crosswalk", {
    byPlaces: report.byPlaces,
    splitAreas: report.splitAreas,
    byNaturalEarthCode: report.byNaturalEarthCode,
    countryByPlaces: report.countryByPlaces,
    countryChanged: report.countryChanged.length,
    unresolvedCountry: report.unresolvedCountry.length,
    unresolvedAdmin1: report.unresolvedAdmin1.length,
    placesUsed: report.placesUsed,
    placesAtSea: report.placesAtSea,
  });
  if (report.unresolvedCountry.length + report.unresolvedAdmin1.length > 0) {
    logger.warn("features the crosswalk could not resolve", { country: report.unresolvedCountry, admin1: report.unresolvedAdmin1 });
  }
  const labels = { iso2: crosswalk.iso2, admin1: crosswalk.admin1, name: adminFeatures.map((f) => f.name) };
  const zoneCountry = zoneCountries(places);
  const enclaves = findEnclaves(zones, neLayer, neGrid, labels, zoneCountry);
  logger.info("enclaves from the timezone polygons", { count: enclaves.length, names: enclaves.map((e) => `${e.name} [${e.iso2}]`) });

  // Enclaves first: the first feature containing a point answers.
  const adminBuilder = new LayerBuilder();
  for (const e of enclaves) adminBuilder.add(e.rings);
  for (const f of adminFeatures) adminBuilder.add(f.rings);
  const adminLayer = adminBuilder.finish();
  const tzBuilder = new LayerBuilder();
  for (const z of zones) tzBuilder.add(z.chains);
  const tzLayer = tzBuilder.finish();
  logger.info("timezone polygons read", { zones: zones.length, vertices: tzLayer.xy.length / 2 });

  const built = buildIndex(adminLayer, tzLayer, a.res, logger);
  logger.info("slot table built", { ...built.stats });
  const refined = refinementArrays(enclaves.length, adminFeatures.length, crosswalk.refinements);
  const attributes: AdminAttributes = {
    iso2: [...enclaves.map((e) => e.iso2), ...labels.iso2],
    admin1: [...enclaves.map((e) => e.admin1), ...labels.admin1],
    name: [...enclaves.map((e) => e.name), ...labels.name],
    tzid: zones.map((z) => z.tzid),
    tzCountry: zones.map((z) => zoneCountry.get(z.tzid) ?? ""),
    refineCodes: refined.codes,
  };
  const { slots, records, chunks: recordChunks } = encodeSlots(built.data, adminLayer, tzLayer);
  const worldMap = Buffer.from(JSON.stringify(buildWorldMap(adminLayer, attributes.iso2)), "utf8");
  const encoded = encodeAdminPayload({ layout: built.data.layout, slots, answers: built.data.answers, records, admin: adminLayer, tz: tzLayer, refinement: refined.refinement, attributes, worldMap });
  const payload = Buffer.concat(encoded.chunks);
  const file = path.join(config.dataDir, ADMIN_SPEC.file);
  const input: EnvelopeInput = {
    magic: ADMIN_SPEC.magic,
    formatVersion: ADMIN_SPEC.formatVersion,
    kind: "admin",
    sources,
    counts: {
      ...built.stats,
      recordBytes: records.byteLength,
      recordChunks,
      adminFeatures: adminFeatures.length,
      enclaves: enclaves.length,
      adminVertices: adminLayer.xy.length / 2,
      timezones: zones.length,
      timezoneVertices: tzLayer.xy.length / 2,
      crosswalkByPlaces: report.byPlaces,
      splitAreas: report.splitAreas,
      refinementPlaces: refined.refinement.lat.length,
      crosswalkByNaturalEarthCode: report.byNaturalEarthCode,
      unresolvedCountry: report.unresolvedCountry.length,
      unresolvedAdmin1: report.unresolvedAdmin1.length,
    },
    extra: { ...encoded.extra, crosswalk: report, enclaves: enclaves.map((e) => ({ name: e.name, iso2: e.iso2, admin1: e.admin1, tzid: e.tzid })) },
  };

  if (a.validatePoints > 0) {
    // The index as the server reads it, from the payload's own bytes.
    const index = openAdminIndex(memorySource(payload), buildMetadata(input, payload.byteLength, 0), file);
    const v = validateIndex(index, { admin: adminLayer, tz: tzLayer, attributes }, Math.ceil(a.validatePoints / 2), Math.floor(a.validatePoints / 2));
    if (v.mismatches.length > 0) {
      const m = v.mismatches[0]!;
      throw new DataFormatError(
        { field: `validation (${v.mismatches.length} of ${v.points} points)` },
        `the index to agree with brute-force point-in-polygon`,
        `${m.layer} feature ${m.index} instead of ${m.exact} at ${m.lat},${m.lon}`,
      );
    }
    logger.info("validated against brute force", { points: v.points });
  }

  await writeArtifact(file, input, [payload]);
  logger.info("admin index written", { file, elapsedS: Math.round(performance.now() - started) / 1000 });
}

export const adminStep: PipelineStep = {
  name: "admin",
  summary: "Country, admin-1 and timezone polygons → H3-bucketed reverse-geocoding index (admin/admin.idx)",
  usage: USAGE,
  codeVersion: 6,
  embeddedDefault: {
    inputs: () => {
      const tz = geoTzFiles(defaultGeoTzDir());
      return [
        path.join(EMBEDDED_DIR, "naturalearth", "ne_10m_admin_1_states_provinces.geojson.gz"),
        tz.index,
        tz.data,
        path.join(EMBEDDED_DIR, "geonames", "cities500.zip"),
        path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"),
      ];
    },
    args: () => [
      "--naturalearth",
      path.join(EMBEDDED_DIR, "naturalearth", "ne_10m_admin_1_states_provinces.geojson.gz"),
      "--places",
      path.join(EMBEDDED_DIR, "geonames", "cities500.zip"),
      "--admin1",
      path.join(EMBEDDED_DIR, "geonames", "admin1CodesASCII.txt.gz"),
    ],
  },
  run: (args, ctx) => runAdmin(parseAdminArgs(args), ctx),
};
