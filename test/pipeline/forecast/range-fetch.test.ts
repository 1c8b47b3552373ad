/**
 * Byte-range ingest from a local HTTP server laid out like NOMADS, serving the real GRIB files
 * with the `.idx` inventories our step writes for them: only the needed messages are fetched,
 * a connection dropped mid-body is retried, a second run is served from the download cache, and
 * the result equals the build from the local directory.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { FIXTURES, runPayloads, tempContext } from "./helpers.ts";

interface Logged {
  path: string;
  range: string | undefined;
  dropped: boolean;
}

/** A static file server with single-range support that can drop the next N range responses halfway. */
function mirrorServer(root: string): { server: Server; log: Logged[]; dropNext: (n: number) => void } {
  const log: Logged[] = [];
  let drops = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(root, decodeURIComponent(url.pathname));
    const info = await stat(file).catch(() => undefined);
    const range = req.headers.range;
    if (!file.startsWith(root) || !info?.isFile()) {
      log.push({ path: url.pathname, range, dropped: false });
      res.writeHead(404).end();
      return;
    }
    if (req.method === "HEAD") {
      res.writeHead(200, { "Content-Length": info.size }).end();
      return;
    }
    const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    const first = m ? Number(m[1]) : 0;
    const last = m && m[2] !== "" ? Math.min(Number(m[2]), info.size - 1) : info.size - 1;
    const length = last - first + 1;
    const drop = m !== null && drops > 0;
    if (drop) drops--;
    log.push({ path: url.pathname, range, dropped: drop });
    const headers: Record<string, string | number> = { "Content-Length": length, "Accept-Ranges": "bytes" };
    if (m) headers["Content-Range"] = `bytes ${first}-${last}/${info.size}`;
    res.writeHead(m ? 206 : 200, headers);
    if (drop) {
      // Half the promised body, then the connection goes away.
      const bytes = await readFile(file);
      res.write(bytes.subarray(first, first + Math.floor(length / 2)), () => res.socket?.destroy());
      return;
    }
    createReadStream(file, { start: first, end: last }).pipe(res);
  });
  return { server, log, dropNext: (n) => void (drops = n) };
}

const cleanup: string[] = [];
let mirror: string;
let base: string;
let served: ReturnType<typeof mirrorServer>;

const ALASKA = "gfs-2011090206-alaska-subgrids-f000-f384.grib2";
const IBERIA = "gfs-0p5-zygrib-2013021406-f000-f072.grib1";
const ONEDEG = "GFS_Global_onedeg_20220627_0000.TotalPrecip.Out48hrs.grib2";
/** Real GFS 0.25 files in NOMADS's tree, cut to the APCP message the model reads (committed). */
const NOMADS_RUN = path.join(FIXTURES, "nomads", "gfs.20200325", "18", "atmos");

beforeAll(async () => {
  mirror = await mkdtemp(path.join(tmpdir(), "fc-mirror-"));
  cleanup.push(mirror);
  for (const f of [ALASKA, IBERIA, ONEDEG]) await copyFile(path.join(EMBEDDED_DIR, "grib", f), path.join(mirror, f));
  // Inventories for the files that come without one (not for the 1 degree file: whole-file path).
  const ctx = await tempContext("fc-idx-");
  cleanup.push(ctx.config.dataDir);
  await runForecast(["--write-idx", path.join(mirror, ALASKA), path.join(mirror, IBERIA)], ctx);
  // The real GFS 0.25 files, in NOMADS's directory layout, with their inventories.
  const dir = path.join(mirror, "gfs.20200325", "18", "atmos");
  await mkdir(dir, { recursive: true });
  for (const h of ["006", "018"]) {
    const target = path.join(dir, `gfs.t18z.pgrb2.0p25.f${h}`);
    await copyFile(path.join(NOMADS_RUN, `gfs.t18z.pgrb2.0p25.f${h}`), target);
    await runForecast(["--write-idx", target], ctx);
  }
  served = mirrorServer(mirror);
  await new Promise<void>((resolve) => served.server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((r) => served.server.close(r));
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});


describe("forecast ingest over HTTP byte ranges", () => {
  it("fetches only the needed messages with Range requests and equals the local build", async () => {
    const args = ["--model", "gfs-alaska-0p5,gfs-iberia-grib1", "--steps", "0-24"];
    const http = await tempContext("fc-http-");
    const local = await tempContext("fc-local-");
    cleanup.push(http.config.dataDir, local.config.dataDir);
    served.log.length = 0;
    const report = await runForecast([...args, "--source", base, "--cache", path.join(http.config.dataDir, "cache")], http);
    await runForecast([...args, "--source", path.join(EMBEDDED_DIR, "grib")], local);
    const gribRequests = served.log.filter((l) => !l.path.endsWith(".idx"));
    expect(gribRequests.length).toBeGreaterThan(0);
    expect(gribRequests.every((l) => l.range !== undefined)).toBe(true);
    // Alaska steps 0-24 are 9 of 81 steps: far less than the file.
    const alaskaBytes = (await stat(path.join(mirror, ALASKA))).size;
    expect(report.bytesFetched).toBeLessThan(alaskaBytes / 2 + (await stat(path.join(mirror, IBERIA))).size);
    const a = await runPayloads(http.config.dataDir);
    const b = await runPayloads(local.config.dataDir);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [file, bytes] of a) expect(bytes.equals(b.get(file)!), file).toBe(true);
    const store = await openForecastStore(path.join(http.config.dataDir, "forecast"));
    expect(store.latest("gfs-alaska-0p5")!.meta.steps).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24]);
    store.close();
  });

  it("retries a connection dropped mid-response, then serves a re-run from the download cache", async () => {
    const ctx = await tempContext("fc-drop-");
    cleanup.push(ctx.config.dataDir);
    const cache = path.join(ctx.config.dataDir, "cache");
    const args = ["--model", "gfs-alaska-0p5", "--steps", "0-6", "--source", base, "--cache", cache];
    served.log.length = 0;
    served.dropNext(2);
    const first = await runForecast(args, ctx);
    expect(served.log.filter((l) => l.dropped).length).toBe(2);
    const reference = await tempContext("fc-drop-ref-");
    cleanup.push(reference.config.dataDir);
    await runForecast(["--model", "gfs-alaska-0p5", "--steps", "0-6", "--source", path.join(EMBEDDED_DIR, "grib")], reference);
    const a = await runPayloads(ctx.config.dataDir);
    const b = await runPayloads(reference.config.dataDir);
    for (const [file, bytes] of a) expect(bytes.equals(b.get(file)!), file).toBe(true);
    expect(first.requests).toBeGreaterThan(0);
    served.log.length = 0;
    const again = await runForecast([...args, "--force"], ctx);
    expect(again.requests).toBe(0);
    expect(again.cacheHits).toBe(first.requests + first.cacheHits);
    expect(served.log.filter((l) => l.range !== undefined)).toEqual([]);
  }, 30_000);

  it("downloads a file without an inventory whole", async () => {
    const ctx = await tempContext("fc-whole-");
    cleanup.push(ctx.config.dataDir);
    served.log.length = 0;
    await runForecast(["--model", "gfs-1p0-precip", "--source", base, "--cache", path.join(ctx.config.dataDir, "cache")], ctx);
    const onedeg = served.log.filter((l) => l.path === `/${ONEDEG}`);
    expect(onedeg.length).toBeGreaterThan(0);
    expect(onedeg.every((l) => l.range === undefined)).toBe(true);
    expect(served.log.some((l) => l.path === `/${ONEDEG}.idx`)).toBe(true);
  });

  it(
    "GFS 0.25 in NOMADS layout: steps 6 and 18, precipitation (6, 18] = 0-18 running total minus 0-6 (ecCodes values)",
    async () => {
      const ctx = await tempContext("fc-gfs025-");
      cleanup.push(ctx.config.dataDir);
      served.log.length = 0;
      await runForecast(["--model", "gfs025", "--run", "2020032518", "--steps", "6,18", "--source", base, "--cache", path.join(ctx.config.dataDir, "cache")], ctx);
      expect(served.log.some((l) => l.path === "/gfs.20200325/18/atmos/gfs.t18z.pgrb2.0p25.f018.idx")).toBe(true);
      const fixture = JSON.parse(await readFile(path.join(FIXTURES, "gfs025-apcp-eccodes.json"), "utf8")) as {
        files: Record<string, { lat: number; lon: number; messages: { stepRange: string; value: number }[] }[]>;
      };
      const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
      const run = store.latest("gfs025")!;
      expect(run.meta.runTime).toBe("2020-03-25T18:00:00.000Z");
      expect(run.meta.steps).toEqual([6, 18]);
      expect(run.meta.intervalStart).toEqual([5, 6]);
      const f006 = fixture.files["gfs.20200325.t18z.pgrb2.0p25.f006"]!;
      const f018 = fixture.files["gfs.20200325.t18z.pgrb2.0p25.f018"]!;
      for (const [k, p] of f018.entries()) {
        const series = run.cellSeries(Math.round(p.lon / 0.25), Math.round((p.lat + 90) / 0.25), "precipitation")!;
        const total18 = p.messages.find((m) => m.stepRange === "0-18")!.value;
        const total6 = f006[k]!.messages.find((m) => m.stepRange === "0-6")!.value;
        // Step 6's window (5, 6] is not published (only 0-6): missing, not invented.
        expect(series[0]).toBeNaN();
        expect(Math.abs(series[1]! - (total18 - total6)), `${p.lat},${p.lon}`).toBeLessThanOrEqual(0.0051);
      }
      store.close();
    },
    60_000,
  );
});
