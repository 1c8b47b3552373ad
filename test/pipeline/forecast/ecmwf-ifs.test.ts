/**
 * The `ecmwf-ifs-0p25` model over HTTP from a local mirror in ECMWF open data's layout
 * (`YYYYMMDD/HHz/ifs/0p25/oper/<run>-<step>h-oper-fc.grib2` + `.index`). The mirrored file holds
 * two real messages of the shared IFS sample, cut byte for byte (snow albedo, total cloud cover,
 * CCSDS-packed); its `.index` was written from that file's message offsets and ecCodes' keys
 * (test/fixtures/forecast/README.md). Checked: the `.index` is read, only the wanted message is
 * fetched by a Range request, cloud cover is stored in % (ECMWF's fraction x 100) equal to
 * ecCodes' values, and the variables the file does not carry are recorded as absent.
 */
import { readFile, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForecastStore } from "../../../datasets/forecast/store.ts";
import { VARIABLE_NAMES } from "../../../datasets/forecast/variables.ts";
import { parseEcmwfIndex } from "../../../pipeline/forecast/ecmwf-index.ts";
import { ECMWF_IFS_0P25 } from "../../../pipeline/forecast/models/ecmwf-ifs/domain.ts";
import { runForecast } from "../../../pipeline/forecast/step.ts";
import { readEccodesLines } from "../grib/eccodes-reference.ts";
import { fixture as gribFixture } from "../grib/fixtures.ts";
import { FIXTURES, tempContext } from "./helpers.ts";

const MIRROR = path.join(FIXTURES, "ecmwf");
const FILE = "20260310/00z/ifs/0p25/oper/20260310000000-0h-oper-fc.grib2";

let server: Server;
let base: string;
const log: { method: string; path: string; range: string | undefined }[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(MIRROR, decodeURIComponent(url.pathname));
    const info = await stat(file).catch(() => undefined);
    log.push({ method: req.method ?? "GET", path: url.pathname, range: req.headers.range });
    if (!file.startsWith(MIRROR) || !info?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const m = req.headers.range ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range) : null;
    const first = m ? Number(m[1]) : 0;
    const last = m && m[2] !== "" ? Math.min(Number(m[2]), info.size - 1) : info.size - 1;
    const headers: Record<string, string | number> = { "Content-Length": last - first + 1, "Accept-Ranges": "bytes" };
    if (m) headers["Content-Range"] = `bytes ${first}-${last}/${info.size}`;
    res.writeHead(m ? 206 : 200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    createReadStream(file, { start: first, end: last }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});

describe("ecmwf-ifs-0p25 from an open-data mirror", () => {
  it("names the files of a run in ECMWF's layout", () => {
    expect(ECMWF_IFS_0P25.files(new Date(Date.UTC(2026, 2, 10, 0)), [0, 6]).map((f) => f.path)).toEqual([FILE, FILE.replace("-0h-", "-6h-")]);
  });

  it("parses the .index into byte ranges: one entry per field, offset and length as written", async () => {
    const text = await readFile(path.join(MIRROR, FILE.replace(/\.grib2$/, ".index")), "utf8");
    const entries = parseEcmwfIndex(text, "x.index");
    const size = (await stat(path.join(MIRROR, FILE))).size;
    expect(entries.map((e) => [e.name, e.level, e.offset, e.end, e.startHour, e.endHour])).toEqual([
      ["asn", "sfc", 0, 111849, 0, 0],
      ["tcc", "sfc", 111849, size, 0, 0],
    ]);
    expect(entries[0]!.referenceTime.toISOString()).toBe("2026-03-10T00:00:00.000Z");
  });

  it("fetches only total cloud cover by range and stores it in % equal to ecCodes x 100", async () => {
    const ctx = await tempContext("fc-ecmwf-");
    cleanup.push(ctx.config.dataDir);
    log.length = 0;
    await runForecast(["--model", "ecmwf-ifs-0p25", "--run", "2026031000", "--steps", "0", "--source", base, "--cache", path.join(ctx.config.dataDir, "cache")], ctx);
    expect(log.some((l) => l.path === `/${FILE.replace(/\.grib2$/, ".index")}`)).toBe(true);
    const gribRequests = log.filter((l) => l.path === `/${FILE}` && l.method === "GET");
    const size = (await stat(path.join(MIRROR, FILE))).size;
    expect(gribRequests.map((l) => l.range)).toEqual([`bytes=111849-${size - 1}`]);
    const store = await openForecastStore(path.join(ctx.config.dataDir, "forecast"));
    const run = store.latest("ecmwf-ifs-0p25")!;
    expect(run.meta.runTime).toBe("2026-03-10T00:00:00.000Z");
    expect(run.meta.variables.map((v) => v.name)).toEqual(["cloud_cover"]);
    // Every other variable of the vocabulary is recorded as absent (only cloud cover was asked for).
    expect(run.meta.absent).toEqual(VARIABLE_NAMES.filter((n) => n !== "cloud_cover"));
    const tcc = readEccodesLines(gribFixture("ecmwf-ifs-oper-surface.eccodes-msg4-5.jsonl")).find((l) => l.shortName === "tcc")!;
    for (const s of tcc.samples) {
      const lonIndex = Math.round((((s.lon + 180) % 360) + 360) % 360 / 0.25);
      const series = run.cellSeries(lonIndex, Math.round((s.lat + 90) / 0.25), "cloud_cover")!;
      // ecCodes printed 7 significant digits; storage resolution 0.01 %.
      expect(Math.abs(series[0]! - s.value! * 100), `${s.lat},${s.lon}`).toBeLessThanOrEqual(0.0051 + 1e-4);
    }
    store.close();
  }, 60_000);

  it("--model-source gives this model its own server beside another --source (as the nightly configuration does)", async () => {
    const ctx = await tempContext("fc-ecmwf-ms-");
    cleanup.push(ctx.config.dataDir);
    log.length = 0;
    const report = await runForecast(
      ["--model", "ecmwf-ifs-0p25", "--run", "2026031000", "--steps", "0", "--source", path.join(ctx.config.dataDir, "no-such-dir"), "--model-source", `ecmwf-ifs-0p25=${base}`, "--cache", path.join(ctx.config.dataDir, "cache")],
      ctx,
    );
    expect(report.runs.map((r) => [r.model, r.runTime, r.variables])).toEqual([["ecmwf-ifs-0p25", "2026-03-10T00:00:00.000Z", 1]]);
    expect(log.some((l) => l.path === `/${FILE}` && l.method === "GET")).toBe(true);
  }, 60_000);
});
