/**
 * The elevation endpoint through the real server on the embedded default (ETOPO5, SRTM3 N00E010 +
 * N00E011, SRTM1 S46W066). Expected heights come from outside our code: SRTM pixels read from the
 * `.hgt` bytes at offsets computed here from the layout (row-major from the north edge, 2 bytes,
 * big-endian), ETOPO5 nodes read from the source GeoTIFF with geotiff.js, and a few GDAL values.
 */
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { fromFile } from "geotiff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { defaultDatasetDir, ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

const DEM = path.join(EMBEDDED_DIR, "dem");
const n00e010 = gunzipSync(readFileSync(path.join(DEM, "N00E010.hgt.gz")));
const s46w066 = gunzipSync(readFileSync(path.join(DEM, "S46W066.hgt.gz")));
let etopo: Int16Array;
let server: TestServer;
let dataDir: string;

/** SRTM3 N00E010 pixel (row, col): byte offset 2 * (row * 1201 + col). */
const srtm3 = (row: number, col: number): number => n00e010.readInt16BE(2 * (row * 1201 + col));
/** SRTM1 S46W066 pixel (row, col): byte offset 2 * (row * 3601 + col). */
const srtm1 = (row: number, col: number): number => s46w066.readInt16BE(2 * (row * 3601 + col));
/** ETOPO5 node at (lat, lon) in the source's 0..360 columns, rows from 90°N, 12 per degree. */
const etopoNode = (lat: number, lon: number): number => etopo[Math.round((90 - lat) * 12) * 4320 + (Math.round((((lon % 360) + 360) % 360) * 12) % 4320)]!;

async function elevation(lat: number | string, lon: number | string): Promise<{ status: number; value: number; source: string | null; body: Record<string, unknown> }> {
  const res = await server.get(`/elevation/point/2/json?lat=${lat}&lon=${lon}`);
  const body = (await res.json()) as { content?: { elevation: { value: number } } };
  return { status: res.status, value: body.content?.elevation.value ?? NaN, source: res.headers.get("x-elevation-source"), body: body as Record<string, unknown> };
}

beforeAll(async () => {
  dataDir = await ensureDefaultData(["elevation"]);
  server = await startTestServer({ dataDir });
  const image = await (await fromFile(path.join(DEM, "etopo5.tif"))).getImage();
  etopo = (await image.readRasters({ interleave: true })) as unknown as Int16Array;
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe("GET /elevation/point/2/json", () => {
  it("answers SRTM3 pixel centres with the .hgt value and names the source", async () => {
    for (const [row, col] of [[0, 0], [600, 600], [695, 1200], [1200, 37], [321, 987]] as const) {
      const r = await elevation(1 - row / 1200, 10 + col / 1200);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: "OK", code: 200, content: { elevation: { value: srtm3(row, col), unit: "m" } } });
      expect(r.source).toBe("srtm3;3arcsec");
    }
  });

  it("answers SRTM1 pixel centres with the .hgt value", async () => {
    // Row 89, column 1336 is a hill top on the coast (146 m); row 100, column 500 is land too.
    for (const [row, col] of [[89, 1336], [100, 500], [60, 1000]] as const) {
      const r = await elevation(-45 - row / 3600, -66 + col / 3600);
      expect(r.value).toBe(srtm1(row, col));
      expect(r.source).toBe("srtm1;1arcsec");
    }
    expect(srtm1(89, 1336)).toBe(146);
  });

  it("interpolates bilinearly between the four surrounding pixels", async () => {
    // A quarter of a pixel east and three quarters south of pixel (400, 800) of N00E010.
    const row = 400;
    const col = 800;
    const fx = 0.25;
    const fy = 0.75;
    const top = srtm3(row, col) * (1 - fx) + srtm3(row, col + 1) * fx;
    const bottom = srtm3(row + 1, col) * (1 - fx) + srtm3(row + 1, col + 1) * fx;
    const expected = top * (1 - fy) + bottom * fy;
    const r = await elevation(1 - (row + fy) / 1200, 10 + (col + fx) / 1200);
    expect(Math.abs(r.value - expected)).toBeLessThanOrEqual(0.5);
    // The four pixels differ, so the answer is not just one of them.
    expect(new Set([srtm3(row, col), srtm3(row, col + 1), srtm3(row + 1, col), srtm3(row + 1, col + 1)]).size).toBeGreaterThan(1);
  });

  it("is continuous across the edge between two SRTM tiles", async () => {
    // N00E010's last column is N00E011's first (both .hgt files hold it); row 695 is 1005 m.
    const lat = 1 - 695 / 1200;
    const onEdge = await elevation(lat, 11);
    expect(onEdge.value).toBe(srtm3(695, 1200));
    const west = await elevation(lat, 11 - 1e-9);
    const east = await elevation(lat, 11 + 1e-9);
    expect(Math.abs(west.value - onEdge.value)).toBeLessThanOrEqual(1);
    expect(Math.abs(east.value - onEdge.value)).toBeLessThanOrEqual(1);
    for (const r of [onEdge, west, east]) expect(r.source).toBe("srtm3;3arcsec");
    // Along the shared edge at every 10th row, the value from both sides matches the bytes.
    for (let row = 0; row <= 1200; row += 120) {
      const v = srtm3(row, 1200);
      expect((await elevation(1 - row / 1200, 11 - 1e-10)).value).toBe(v);
      expect((await elevation(1 - row / 1200, 11 + 1e-10)).value).toBe(v);
    }
  });

  it("answers outside the SRTM coverage from ETOPO5 (nodes as in the source GeoTIFF)", async () => {
    for (const [lat, lon] of [[70, 25], [-70, 0], [40, -100], [28, 86 + 11 / 12], [61, 100]] as const) {
      const r = await elevation(lat, lon);
      expect(r.status).toBe(200);
      expect(r.value).toBe(etopoNode(lat, lon));
      expect(r.source).toBe("etopo5;5arcmin");
    }
    // GDAL 3.6 `gdallocationinfo -wgs84 etopo5.tif 260 40` → 723; 86.9167 28 → 6096.
    expect((await elevation(40, -100)).value).toBe(723);
    expect((await elevation(28, 86 + 11 / 12)).value).toBe(6096);
  });

  it("interpolates ETOPO5 between nodes", async () => {
    const lat = 45 + 1 / 24; // half way between the nodes at 45°00' and 45°05'
    const lon = 7 + 1 / 48; // a quarter of the way from 7°00' to 7°05'
    const a = etopoNode(45 + 1 / 12, 7) * 0.75 + etopoNode(45 + 1 / 12, 7 + 1 / 12) * 0.25;
    const b = etopoNode(45, 7) * 0.75 + etopoNode(45, 7 + 1 / 12) * 0.25;
    const r = await elevation(lat, lon);
    expect(Math.abs(r.value - (a + b) / 2)).toBeLessThanOrEqual(0.5);
  });

  it("wraps across the antimeridian: 180 and -180 agree, and between 179°55' and 180° it interpolates", async () => {
    const lat = 10;
    const at180 = await elevation(lat, 180);
    const atMinus180 = await elevation(lat, -180);
    expect(at180.value).toBe(etopoNode(lat, 180));
    expect(atMinus180.value).toBe(at180.value);
    const between = await elevation(lat, 180 - 1 / 24);
    const expected = (etopoNode(lat, 180 - 1 / 12) + etopoNode(lat, 180)) / 2;
    expect(Math.abs(between.value - expected)).toBeLessThanOrEqual(0.5);
    const beyond = await elevation(lat, -180 + 1 / 24);
    expect(Math.abs(beyond.value - (etopoNode(lat, 180) + etopoNode(lat, 180 + 1 / 12)) / 2)).toBeLessThanOrEqual(0.5);
  });

  it("answers at the poles from the polar rows", async () => {
    for (const lon of [-180, -45.5, 0, 120, 180]) {
      expect((await elevation(90, lon)).value).toBe(etopoNode(90, 0));
      expect((await elevation(-90, lon)).value).toBe(etopoNode(-90, 0));
    }
    // GDAL: -4290 m at the North Pole (Arctic Ocean floor), 2810 m at the South Pole (ice surface).
    expect((await elevation(90, 0)).value).toBe(-4290);
    expect((await elevation(-90, 0)).value).toBe(2810);
  });

  it("gives 0 over the sea inside an SRTM tile and ETOPO5's sea floor elsewhere", async () => {
    // S46W066 row 1800, column 1800 is open sea in Golfo San Jorge: the .hgt says 0.
    expect(srtm1(1800, 1800)).toBe(0);
    const gulf = await elevation(-45.5, -65.5);
    expect([gulf.value, gulf.source]).toEqual([0, "srtm1;1arcsec"]);
    // Mid-Atlantic at the equator, 30°W: GDAL reads -3993 from the source.
    const ocean = await elevation(0, -30);
    expect([ocean.value, ocean.source]).toEqual([-3993, "etopo5;5arcmin"]);
  });

  it("refuses bad coordinates with a 400 naming the parameter", async () => {
    for (const [q, name] of [["lat=91&lon=0", "lat"], ["lat=0&lon=-180.5", "lon"], ["lat=abc&lon=0", "lat"], ["lat=0", "lon"]] as const) {
      const res = await server.get(`/elevation/point/2/json?${q}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toContain(`'${name}'`);
    }
  });
});

describe("elevation with a damaged dataset", () => {
  it("answers 503, not 500, when a tile block is corrupted after startup", async () => {
    const copy = await fs.mkdtemp(path.join(os.tmpdir(), "elev-corrupt-"));
    try {
      await fs.cp(path.join(await defaultDatasetDir("elevation"), "elevation"), path.join(copy, "elevation"), { recursive: true });
      const running = await startTestServer({ dataDir: copy });
      try {
        // Overwrite the same file in place (same size, tiles replaced by 0x55 bytes): the loader's
        // checks passed at startup, the first tile read fails.
        const tile = path.join(copy, "elevation/srtm3/N00E010.tif");
        const bytes = await fs.readFile(tile);
        bytes.fill(0x55, 4096);
        await fs.writeFile(tile, bytes);
        const res = await running.get("/elevation/point/2/json?lat=0.5&lon=10.5");
        expect(res.status).toBe(503);
        expect(((await res.json()) as { message: string }).message).toContain("'elevation'");
      } finally {
        await running.close();
      }
    } finally {
      await fs.rm(copy, { recursive: true, force: true });
    }
  });

  it("answers 503 when a tile the index names is truncated", async () => {
    const copy = await fs.mkdtemp(path.join(os.tmpdir(), "elev-503-"));
    try {
      await fs.cp(path.join(await defaultDatasetDir("elevation"), "elevation"), path.join(copy, "elevation"), { recursive: true });
      const tile = path.join(copy, "elevation/srtm1/S46W066.tif");
      const bytes = await fs.readFile(tile);
      await fs.writeFile(tile, bytes.subarray(0, bytes.byteLength - 100));
      const broken = await startTestServer({ dataDir: copy });
      try {
        const res = await broken.get("/elevation/point/2/json?lat=0.5&lon=10.5");
        expect(res.status).toBe(503);
        expect(((await res.json()) as { message: string }).message).toContain("'elevation'");
      } finally {
        await broken.close();
      }
    } finally {
      await fs.rm(copy, { recursive: true, force: true });
    }
  });
});
