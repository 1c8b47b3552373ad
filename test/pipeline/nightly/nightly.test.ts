/**
 * The nightly end to end against a local mirror (test/helpers/upstream-mirror.ts) serving the
 * real embedded files at their upstream paths: GeoNames cities15000 with countryInfo and
 * admin1CodesASCII (served plain, as GeoNames does), the NOAA station list and the real
 * aviationweather.gov METAR CSV as its cache file, and two real GFS 0.25 files in NOMADS's tree
 * (test/fixtures/forecast/nomads) with the `.idx` inventories this test writes from their message
 * offsets. Faults: a connection dropped mid-body (resumed by Range), a 500 then success, 304s on
 * the second run, a truncated zip, a place dump whose count collapses. Each test has its own
 * mirror and data directory; those that go on from the first nightly start from a copy of its
 * data directory, so every test passes alone and in any order.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig, type Config } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { parseNightlyConfig } from "../../../pipeline/nightly/config.ts";
import { runNightly } from "../../../pipeline/nightly/run.ts";
import { exitCodeOf, type DatasetSummary } from "../../../pipeline/nightly/summary.ts";
import { currentRelease } from "../../../pipeline/releases/release-dir.ts";
import type { AllowEntry } from "../../../pipeline/nightly/checks.ts";
import { STEPS } from "../../../pipeline/steps.ts";
import { UpstreamMirror } from "../../helpers/upstream-mirror.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";
import { storedZip } from "../../helpers/zip-writer.ts";
import { listZipEntries, openZipEntry } from "../../../pipeline/common/zip.ts";

const EMBEDDED = path.join(PROJECT_ROOT, "datasets", "embedded");
const GN = "download.geonames.org/export/dump";
const TG = "tgftp.nws.noaa.gov/data";
const NOMADS = "nomads.ncep.noaa.gov/pub/data/nccf/com/gfs/prod";
/** The run of the GFS 0.25 fixtures: one message each, APCP 0-6 h (f006) and 0-18 h (f018) (fixtures README). */
const GFS_RUN = "gfs.20200325/18/atmos";
const GFS_FILES = [
  { name: "gfs.t18z.pgrb2.0p25.f006", window: "0-6", lastModified: new Date(Date.UTC(2020, 2, 25, 21, 30)) },
  { name: "gfs.t18z.pgrb2.0p25.f018", window: "0-18", lastModified: new Date(Date.UTC(2020, 2, 25, 21, 40)) },
];

/** The upstream files as they are published (read once), served by every test's own mirror. */
const published = new Map<string, { body: Buffer; lastModified?: Date }>();
let cities: Buffer;
/** Lines of cities15000.txt in the committed dump, counted with `unzip -p cities15000.zip | wc -l`. */
const CITIES15000_ROWS = 32_847;

/**
 * Offsets of the GRIB2 messages of a file, from each message's section 0 (WMO FM 92 GRIB edition
 * 2: "GRIB", the edition in octet 8, the message's total length in octets 9-16).
 */
function gribMessageOffsets(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; at < bytes.length; at += Number(bytes.readBigUInt64BE(at + 8))) {
    expect(bytes.toString("latin1", at, at + 4)).toBe("GRIB");
    expect(bytes[at + 7]).toBe(2);
    offsets.push(at);
  }
  return offsets;
}

async function readZipText(zip: Buffer, dir: string): Promise<string> {
  const file = path.join(dir, "cut.zip");
  await fs.writeFile(file, zip);
  const entry = (await listZipEntries(file))[0]!;
  const chunks: Buffer[] = [];
  for await (const c of await openZipEntry(file, entry)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\n$/, "");
}

const nightly = (dataDir: string) =>
  parseNightlyConfig(
    {
      datasets: {
        places: {
          sources: { countries: `https://${GN}/countryInfo.txt`, admin1: `https://${GN}/admin1CodesASCII.txt`, places: [`https://${GN}/cities15000.zip`] },
          args: ["--duckdb-threads", "1"],
          tolerances: [{ count: "places", minRatio: 0.98, maxRatio: 1.02 }],
        },
        stations: {
          sources: {
            noaa: `https://${TG}/nsd_cccc.txt`,
            // The WMO list has no upstream in this layout: read in place, like the checked-in configuration.
            wmo: pathToFileURL(path.join(EMBEDDED, "stations", "wmo_stations.csv.gz")).href,
            metar: [`https://aviationweather.gov/data/cache/metars.cache.csv.gz`],
          },
          tolerances: [{ count: "stations", minRatio: 0.8 }],
        },
      },
    },
    path.join(dataDir, "nightly.config.json"),
  );

/**
 * What one test works on, shared with no other test (so that each passes alone and in any
 * order): its own mirror serving the files as published, and its own data directory.
 */
interface World {
  dataDir: string;
  mirror: UpstreamMirror;
  config: Config;
  run(allowlist?: AllowEntry[], force?: boolean): Promise<Map<string, DatasetSummary>>;
  /** A server on this data directory, polling the release pointers; closed after the tests. */
  serve(): Promise<TestServer>;
}

const cleanups: (() => Promise<void>)[] = [];

/** A new world; with `from`, its data directory starts as a copy of that one. */
async function world(from?: string): Promise<World> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-nightly-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  if (from) await fs.cp(from, dataDir, { recursive: true, verbatimSymlinks: true });
  const mirror = new UpstreamMirror();
  for (const [p, f] of published) mirror.put(p, f.body, f.lastModified);
  await mirror.start();
  cleanups.push(() => mirror.stop());
  const config: Config = { ...readConfig({ GEODATA_DATA_DIR: dataDir, GEODATA_KEEP_RELEASES: "2" }), mirror: mirror.baseUrl };
  return {
    dataDir,
    mirror,
    config,
    async run(allowlist = [], force = false) {
      const summaries = await runNightly({ config, nightly: nightly(dataDir), allowlist, steps: STEPS, logger: silentLogger, force, backoffMs: 10 });
      return new Map(summaries.map((s) => [s.dataset, s]));
    },
    async serve() {
      const server = await startTestServer({ dataDir, env: { GEODATA_RELEASE_POLL_MS: "100" } });
      cleanups.push(() => server.close());
      return server;
    },
  };
}

let firstNightly: Promise<{ world: World; first: Map<string, DatasetSummary> }> | undefined;

/**
 * The first nightly on an empty data directory, through a connection dropped mid-body and a 500:
 * run once, by whichever test needs it first. Tests that go on from it copy its data directory.
 */
function first(): Promise<{ world: World; first: Map<string, DatasetSummary> }> {
  firstNightly ??= (async () => {
    const w = await world();
    w.mirror.fault(`${GN}/cities15000.zip`, "drop-mid-body");
    w.mirror.fault(`${GN}/countryInfo.txt`, "status-500");
    return { world: w, first: await w.run() };
  })();
  return firstNightly;
}

/** A world that goes on from the first nightly: a copy of its data directory, a mirror of its own. */
async function afterFirst(): Promise<{ world: World; first: Map<string, DatasetSummary> }> {
  const { world: source, first: summaries } = await first();
  return { world: await world(source.dataDir), first: summaries };
}

async function servedPlaces(server: TestServer): Promise<{ release?: string; counts?: Record<string, number> }> {
  const body = (await (await fetch(`${server.baseUrl}/health`)).json()) as { content: { datasets: Array<{ name: string; release?: string; counts?: Record<string, number> }> } };
  return body.content.datasets.find((d) => d.name === "places")!;
}

beforeAll(async () => {
  cities = await fs.readFile(path.join(EMBEDDED, "geonames", "cities15000.zip"));
  published.set(`${GN}/countryInfo.txt`, { body: gunzipSync(await fs.readFile(path.join(EMBEDDED, "geonames", "countryInfo.txt.gz"))) });
  published.set(`${GN}/admin1CodesASCII.txt`, { body: gunzipSync(await fs.readFile(path.join(EMBEDDED, "geonames", "admin1CodesASCII.txt.gz"))) });
  published.set(`${GN}/cities15000.zip`, { body: cities });
  published.set(`${TG}/nsd_cccc.txt`, { body: gunzipSync(await fs.readFile(path.join(EMBEDDED, "stations", "nsd_cccc.txt.gz"))) });
  published.set("aviationweather.gov/data/cache/metars.cache.csv.gz", { body: await fs.readFile(path.join(EMBEDDED, "metar", "aviationweather-na-2025-09-09_12.csv.gz")) });
  for (const f of GFS_FILES) {
    const grib = await fs.readFile(path.join(PROJECT_ROOT, "test", "fixtures", "forecast", "nomads", ...GFS_RUN.split("/"), f.name));
    const offsets = gribMessageOffsets(grib);
    expect(offsets).toHaveLength(1);
    // wgrib2's inventory line for GFS's APCP, as NOMADS publishes it beside every file.
    const idx = offsets.map((o, k) => `${k + 1}:${o}:d=2020032518:APCP:surface:${f.window} hour acc fcst:\n`).join("");
    published.set(`${NOMADS}/${GFS_RUN}/${f.name}`, { body: grib, lastModified: f.lastModified });
    published.set(`${NOMADS}/${GFS_RUN}/${f.name}.idx`, { body: Buffer.from(idx), lastModified: new Date(f.lastModified.getTime() + 60_000) });
  }
}, 30_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("nightly", () => {
  it("publishes every dataset through a dropped connection (resumed by Range) and a 500", async () => {
    const { world: w, first: summaries } = await first();
    expect(summaries.get("stations")?.reason).toBeUndefined();
    expect(summaries.get("places")).toMatchObject({ status: "published", previousRelease: undefined });
    expect(summaries.get("stations")).toMatchObject({ status: "published" });
    expect(exitCodeOf([...summaries.values()])).toBe(0);

    const zipRequests = w.mirror.requests.filter((r) => r.path === `/${GN}/cities15000.zip`);
    expect(zipRequests.map((r) => r.status)).toEqual([200, 206]);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(zipRequests[1]!.range ?? "")?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(cities.length);
    // The part received, then the rest: no byte fetched twice (the 500 had no body).
    const places = summaries.get("places")!;
    expect(places.sources.find((s) => s.url.endsWith("cities15000.zip"))).toMatchObject({ size: cities.length, sha256: createHash("sha256").update(cities).digest("hex"), status: "fetched" });
    expect(places.bytesFetched).toBe(places.sources.reduce((n, s) => n + ("size" in s ? s.size : Number.NaN), 0));
    expect(w.mirror.requests.filter((r) => r.path === `/${GN}/countryInfo.txt`).map((r) => r.status)).toEqual([500, 200]);

    const release = await currentRelease(w.dataDir, "places");
    expect(release?.id).toBe(places.release);
    expect(release?.manifest?.counts.places).toBe(CITIES15000_ROWS);
    await fs.access(path.join(release!.dir, "places", "places.idx"));
    const server = await w.serve();
    expect(await servedPlaces(server)).toMatchObject({ release: places.release, counts: { places: CITIES15000_ROWS } });
    const stations = await currentRelease(w.dataDir, "stations");
    expect(stations?.manifest?.counts.stations).toBeGreaterThan(10_000);
  }, 300_000);

  it("asks again with the validators: 304 for every source, nothing rebuilt", async () => {
    const { world: w, first: summaries } = await afterFirst();
    const second = await w.run();
    expect(w.mirror.requests.length).toBe(5);
    expect(w.mirror.requests.every((r) => r.conditional && r.status === 304)).toBe(true);
    expect(second.get("places")).toMatchObject({ status: "unchanged", release: summaries.get("places")!.release, bytesFetched: 0 });
    expect(second.get("stations")).toMatchObject({ status: "unchanged", release: summaries.get("stations")!.release });
  }, 300_000);

  it("keeps the previous release when a zip is truncated", async () => {
    const { world: w, first: summaries } = await afterFirst();
    const firstPlaces = summaries.get("places")!.release;
    w.mirror.put(`${GN}/cities15000.zip`, cities.subarray(0, Math.floor(cities.length * 0.6)), new Date(Date.UTC(2026, 10, 2)));
    const third = await w.run();
    expect(third.get("places")).toMatchObject({ status: "failed", failedAt: "build", release: firstPlaces });
    expect(third.get("stations")).toMatchObject({ status: "unchanged", release: summaries.get("stations")!.release });
    expect(exitCodeOf([...third.values()])).toBe(1);
    expect((await currentRelease(w.dataDir, "places"))?.id).toBe(firstPlaces);
    // The failed release is not left behind.
    expect((await fs.readdir(path.join(w.dataDir, "releases", "places"))).filter((n) => /^\d{8}T/.test(n))).toEqual([firstPlaces]);
  }, 300_000);

  it("refuses a source whose counts collapse, then publishes it when the allowlist names the jump", async () => {
    const { world: w, first: summaries } = await afterFirst();
    const firstPlaces = summaries.get("places")!.release;
    const server = await w.serve();
    // The first 1,000 rows of the real dump, zipped as GeoNames does.
    const rows = (await readZipText(cities, w.dataDir)).split("\n").slice(0, 1000).join("\n") + "\n";
    w.mirror.put(`${GN}/cities15000.zip`, storedZip("cities15000.txt", Buffer.from(rows, "utf8")), new Date(Date.UTC(2026, 10, 3)));
    const collapsed = await w.run();
    expect(collapsed.get("places")).toMatchObject({ status: "failed", failedAt: "check", release: firstPlaces });
    expect(collapsed.get("places")!.reason).toBe(`count places: expected 0.98 to 1.02 x the previous release's ${CITIES15000_ROWS}, got 1000`);
    expect((await currentRelease(w.dataDir, "places"))?.id).toBe(firstPlaces);

    const allowed = await w.run([{ dataset: "places", count: "places", description: "test: the dump was cut on purpose" }]);
    const release = allowed.get("places")!.release;
    expect(allowed.get("places")).toMatchObject({ status: "published", previousRelease: firstPlaces, deltas: { places: { previous: CITIES15000_ROWS, now: 1000 } } });
    expect(allowed.get("places")!.allowed[0]).toMatch(/allowlisted: test: the dump was cut on purpose/);
    // The running server follows the new pointer without a restart.
    const served = await until("the server to serve the new places release", async () => {
      const p = await servedPlaces(server);
      return p.release === release ? p : undefined;
    });
    expect(served).toMatchObject({ release, counts: { places: 1000 } });
  }, 300_000);

  it("keeps GEODATA_KEEP_RELEASES releases", async () => {
    const { world: w, first: summaries } = await afterFirst();
    const forced = await w.run([], true);
    expect(forced.get("stations")).toMatchObject({ status: "published", previousRelease: summaries.get("stations")!.release });
    const again = await w.run([], true);
    const kept = (await fs.readdir(path.join(w.dataDir, "releases", "stations"))).filter((n) => /^\d{8}T/.test(n)).sort();
    expect(kept).toEqual([forced.get("stations")!.release, again.get("stations")!.release].sort());
  }, 300_000);

  it("reports the forecast step's own downloads: the run chosen, its files' newest Last-Modified, the bytes the mirror sent", async () => {
    const w = await world();
    const forecastOnly = parseNightlyConfig(
      { datasets: { forecast: { sources: { base: `https://${NOMADS}/` }, args: ["--model", "gfs025", "--run", "2020032518", "--steps", "6,18"] } } },
      path.join(w.dataDir, "nightly.config.json"),
    );
    const served = (from: number) => w.mirror.requests.slice(from).filter((r) => r.path.startsWith(`/${NOMADS}/`));
    const newest = Math.max(...[...w.mirror.files].filter(([p]) => p.startsWith(`/${NOMADS}/`)).map(([, f]) => f.lastModified.getTime()));
    const [fc] = await runNightly({ config: w.config, nightly: forecastOnly, allowlist: [], steps: STEPS, logger: silentLogger, force: false });
    expect(fc).toMatchObject({ dataset: "forecast", status: "published", counts: { runs: 1, models: 1 } });
    const sent = served(0);
    const bodies = sent.filter((r) => r.bytes > 0);
    // Both inventories and both messages (one range each), each once.
    expect(bodies.map((r) => r.path).sort()).toEqual(GFS_FILES.flatMap((f) => [`/${NOMADS}/${GFS_RUN}/${f.name}`, `/${NOMADS}/${GFS_RUN}/${f.name}.idx`]).sort());
    const bytesSent = sent.reduce((n, r) => n + r.bytes, 0);
    expect(fc!.bytesFetched).toBe(bytesSent);
    expect(fc!.sources).toEqual([
      { url: `https://${NOMADS}/${GFS_RUN}/`, status: "fetched", model: "gfs025", runs: ["2020-03-25T18:00:00.000Z"], files: 2, requests: bodies.length, cacheHits: 0, bytesFetched: bytesSent, lastModified: new Date(newest).toUTCString() },
    ]);

    // No new run: the release is kept, the run is named as the one in the store, nothing is fetched.
    const again = w.mirror.requests.length;
    const [kept] = await runNightly({ config: w.config, nightly: forecastOnly, allowlist: [], steps: STEPS, logger: silentLogger, force: false });
    expect(kept).toMatchObject({ status: "unchanged", release: fc!.release, bytesFetched: 0 });
    expect(served(again).reduce((n, r) => n + r.bytes, 0)).toBe(0);
    expect(kept!.sources).toEqual([{ url: `https://${NOMADS}/${GFS_RUN}/`, status: "in-store", model: "gfs025", runs: ["2020-03-25T18:00:00.000Z"], files: 0, requests: 0, cacheHits: 0, bytesFetched: 0 }]);
  }, 300_000);
});
