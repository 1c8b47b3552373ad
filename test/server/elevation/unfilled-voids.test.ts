/**
 * What an unfilled void gives: a dataset built WITHOUT a global DEM from the real N00E010 tile
 * with a block of pixels set to the SRTM void value (-32768), so nothing can fill them.
 * Expected values come from the .hgt bytes (offsets computed here from the layout).
 */
import { promises as fs, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../datasets/common/log.ts";
import { EMBEDDED_DIR } from "../../../datasets/common/paths.ts";
import { buildElevation } from "../../../pipeline/elevation/build.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

const hgt = gunzipSync(readFileSync(path.join(EMBEDDED_DIR, "dem/N00E010.hgt.gz")));
const px = (row: number, col: number): number => hgt.readInt16BE(2 * (row * 1201 + col));
let work: string;
let server: TestServer;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "elev-voids-"));
  const voided = Buffer.from(hgt);
  // Rows 100..109, columns 200..209 void.
  for (let r = 100; r < 110; r++) for (let c = 200; c < 210; c++) voided.writeInt16BE(-32768, 2 * (r * 1201 + c));
  await fs.mkdir(path.join(work, "in"));
  await fs.writeFile(path.join(work, "in/N00E010.hgt"), voided);
  await buildElevation({ globals: [], hgtFiles: [path.join(work, "in/N00E010.hgt")], outDir: work, logger: silentLogger });
  server = await startTestServer({ dataDir: work });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function get(lat: number, lon: number): Promise<{ status: number; body: { content?: { elevation: { value: number } }; message?: string } }> {
  const res = await server.get(`/elevation/point/2/json?lat=${lat}&lon=${lon}`);
  return { status: res.status, body: (await res.json()) as { content?: { elevation: { value: number } }; message?: string } };
}

describe("voids no DEM can fill", () => {
  it("answers 404 inside the void, where all four neighbours are void and no coarser DEM exists", async () => {
    const r = await get(1 - 104.5 / 1200, 10 + 204.5 / 1200);
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/No elevation data at lat .*no installed DEM covers the point/);
  });

  it("leaves a void neighbour out of the interpolation and renormalises the others", async () => {
    // Half way between pixel (99, 199), (99, 200), (100, 199) [valid] and (100, 200) [void].
    const r = await get(1 - 99.5 / 1200, 10 + 199.5 / 1200);
    const expected = (px(99, 199) + px(99, 200) + px(100, 199)) / 3;
    expect(r.status).toBe(200);
    expect(Math.abs(r.body.content!.elevation.value - expected)).toBeLessThanOrEqual(0.5);
  });

  it("answers 404 outside every tile when there is no global DEM", async () => {
    expect((await get(45, 7)).status).toBe(404);
    expect((await get(0.5, 10.5)).status).toBe(200);
  });
});
