/**
 * The `cmc-gdps` model's upstream layout (one file per variable and step, no inventory) and its
 * ingest path, from a local HTTP mirror serving the one real GDPS file we have
 * (`CMC_glb_TMP_ISBL_1_latlon.24x.24_2021051800_P000.grib2`, JPEG 2000, the 25 km grid of the
 * time, temperature at 1 hPa). That level is not in our vocabulary, so the ingest check uses the
 * same domain factory with the file's own grid token and a collection-only variable for it; the
 * values pasted on the domain grid must be wgrib2's (every 97th value, committed golden file).
 */
import { copyFile, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../datasets/common/log.ts";
import { collectFields, fieldKey } from "../../../pipeline/forecast/collect.ts";
import { memoryFieldStore } from "../../../pipeline/forecast/field-store.ts";
import { GRIB_CODEC } from "../../../pipeline/forecast/grib-codec.ts";
import { httpSource } from "../../../pipeline/forecast/grib-source.ts";
import { CMC_GDPS, cmcGdpsDomain } from "../../../pipeline/forecast/models/cmc-gdps/domain.ts";
import { fixture } from "../grib/fixtures.ts";
import { goldenMismatches, goldenValues } from "../grib/golden.ts";

const REAL_NAME = "CMC_glb_TMP_ISBL_1_latlon.24x.24_2021051800_P000.grib2";
const RUN = new Date(Date.UTC(2021, 4, 18, 0));
/** The real file's variable, for collection only (1 hPa is not a vocabulary level). */
const TMP_1HPA = {
  token: "TMP_ISBL_1",
  variable: { name: "temperature_1hPa_test_only", aggregation: "instant" as const, grib2: { discipline: 0, category: 0, number: 0, levelType: 100, levelValue: 100 }, inventory: { name: "TMP", level: "1 mb" } },
};

let server: Server;
let base: string;
let mirror: string;
const log: { method: string; path: string; range: string | undefined }[] = [];

beforeAll(async () => {
  mirror = await mkdtemp(path.join(tmpdir(), "fc-cmc-"));
  await mkdir(path.join(mirror, "00", "000"), { recursive: true });
  await copyFile(fixture("cmc-glb-tmp-1mb-2021051800-p000-jpeg2000.grib2"), path.join(mirror, "00", "000", REAL_NAME));
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(mirror, decodeURIComponent(url.pathname));
    log.push({ method: req.method ?? "GET", path: url.pathname, range: req.headers.range });
    const info = await stat(file).catch(() => undefined);
    if (!file.startsWith(mirror) || !info?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Length": info.size });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(mirror, { recursive: true, force: true });
});

describe("cmc-gdps", () => {
  it("names one file per variable and step in the Datamart layout", () => {
    const paths = CMC_GDPS.files(RUN, [0, 3]).map((f) => f.path);
    expect(paths.length).toBe(2 * CMC_GDPS.variables.length);
    expect(paths).toContain("00/000/CMC_glb_TMP_TGL_2_latlon.15x.15_2021051800_P000.grib2");
    expect(paths).toContain("00/003/CMC_glb_APCP_SFC_0_latlon.15x.15_2021051800_P003.grib2");
    // The same pattern gives the real file's name for its variable and grid.
    expect(cmcGdpsDomain("cmc-test", "24x.24", 0.24, [TMP_1HPA]).files(RUN, [0]).map((f) => `00/000/${path.posix.basename(f.path)}`)).toEqual([`00/000/${REAL_NAME}`]);
  });

  it("fetches the real file whole (no inventory), decodes JPEG 2000 and pastes it on the domain grid as wgrib2 decodes it", async () => {
    const domain = cmcGdpsDomain("cmc-test", "24x.24", 0.24, [TMP_1HPA]);
    expect([domain.grid.nLat, domain.grid.nLon]).toEqual([751, 1500]);
    const store = memoryFieldStore();
    const cacheDir = await mkdtemp(path.join(tmpdir(), "fc-cmc-cache-"));
    log.length = 0;
    const result = await collectFields({
      domain,
      files: domain.files(RUN, [0]).map((f) => f.path),
      source: httpSource(base, { cacheDir, logger: silentLogger, attempts: 1, backoffMs: 1 }),
      codec: GRIB_CODEC,
      store,
      logger: silentLogger,
      steps: [0],
    });
    await rm(cacheDir, { recursive: true, force: true });
    expect(result.messagesDecoded).toBe(1);
    expect(log.filter((l) => l.path.endsWith(".grib2") && l.method === "GET").map((l) => l.range)).toEqual([undefined]);
    const values = store.band(fieldKey(RUN, 0, 0, 0), 0, 751 * 1500);
    // The file runs from 90S, 180E (= 180W) eastwards, row by row northwards: the domain's order.
    expect(goldenMismatches(values, goldenValues("cmc-glb-tmp-1mb-2021051800-p000.wgrib2-every97.f32")).slice(0, 5)).toEqual([]);
    store.close();
  }, 60_000);
});
