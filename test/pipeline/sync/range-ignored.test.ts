/**
 * sync from an origin that ignores Range (pipeline/sync/fetch-file.ts): the connection of the
 * first answer drops half-way, the retry asks for the rest and gets the whole file again (200):
 * the file is started over, is whole and right, and is not counted as resumed. Against an
 * origin that honours Range the same drop is a resume (sync.test.ts). What sync downloaded is
 * remembered as checked (datasets/releases/checked-files.ts): the server's check of the new
 * release hashes none of it. Real data: the embedded default's elevation files, served by a
 * small node:http origin written here.
 */
import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { silentLogger } from "../../../datasets/common/log.ts";
import { CheckedFiles } from "../../../datasets/releases/checked-files.ts";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { verifyRelease } from "../../../datasets/releases/verify.ts";
import { openOrigin } from "../../../pipeline/sync/origin.ts";
import { syncDataset } from "../../../pipeline/sync/run.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt } from "../../helpers/releases.ts";

const R1 = "20261101T000000Z";
const TILE = `releases/elevation/${R1}/elevation/global/etopo5.tif`;

let builder: string;
let node: string;
let server: http.Server;
let base: string;
const requests: Array<{ path: string; range: string | undefined; status: number }> = [];

beforeAll(async () => {
  builder = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-norange-builder-"));
  node = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-norange-node-"));
  await linkRelease(builder, "elevation", R1, await defaultDatasetDir("elevation"));
  await pointAt(builder, "elevation", R1);
  let dropped = false;
  // Ignores Range (always 200, the whole file); drops the tile's first answer half-way.
  server = http.createServer((req, res) => {
    const rel = decodeURIComponent((req.url ?? "/").slice(1));
    fs.readFile(path.join(builder, ...rel.split("/"))).then(
      (body) => {
        requests.push({ path: rel, range: req.headers.range, status: 200 });
        res.writeHead(200, { "Content-Length": String(body.length) });
        if (rel === TILE && !dropped) {
          dropped = true;
          res.write(body.subarray(0, body.length >> 1), () => res.destroy());
        } else res.end(body);
      },
      () => {
        requests.push({ path: rel, range: req.headers.range, status: 404 });
        res.writeHead(404).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 600_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  for (const d of [builder, node]) if (d) await fs.rm(d, { recursive: true, force: true });
});

describe("sync from an origin that ignores Range", () => {
  it("starts the dropped file over, whole, and does not count it as resumed; the server then hashes nothing", async () => {
    const config = readConfig({ GEODATA_DATA_DIR: node });
    const s = await syncDataset("elevation", { config, origin: openOrigin(base), logger: silentLogger, backoffMs: 5 });
    expect(s).toMatchObject({ status: "synced", release: R1, resumed: 0 });
    const tile = requests.filter((r) => r.path === TILE);
    expect(tile.map((r) => r.status)).toEqual([200, 200]);
    expect(Number(/^bytes=(\d+)-$/.exec(tile[1]!.range ?? "")?.[1])).toBeGreaterThan(0);
    const size = (await fs.stat(path.join(builder, ...TILE.split("/")))).size;
    // Half the tile, then all of it: every byte of the second answer was needed.
    expect(s.bytesFetched).toBeGreaterThan(s.bytes);
    expect(s.bytesFetched).toBeLessThanOrEqual(s.bytes + size);
    const mine = await fs.readFile(path.join(node, ...TILE.split("/")));
    expect(mine.equals(await fs.readFile(path.join(builder, ...TILE.split("/"))))).toBe(true);
    expect((await fs.readdir(path.join(node, "releases", "elevation"))).filter((n) => n.startsWith("."))).toEqual([]);

    const { cost } = await verifyRelease(releaseDirOf(node, "elevation", R1), { dataset: "elevation", id: R1 }, (p) => p, await CheckedFiles.open(node));
    expect(cost).toMatchObject({ files: s.files, hashed: 0, hashedBytes: 0 });
  }, 120_000);

  it("does not count as resumed the partial file a killed run left when the whole file comes again", async () => {
    const other = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-norange-killed-"));
    try {
      // What a killed run left: the assembly of R1 with half of the global DEM.
      const whole = await fs.readFile(path.join(builder, ...TILE.split("/")));
      const part = path.join(other, "releases", "elevation", `.sync-${R1}`, "elevation", "global", "etopo5.tif.part");
      await fs.mkdir(path.dirname(part), { recursive: true });
      await fs.writeFile(part, whole.subarray(0, whole.length >> 1));
      requests.length = 0;
      const s = await syncDataset("elevation", { config: readConfig({ GEODATA_DATA_DIR: other }), origin: openOrigin(base), logger: silentLogger, backoffMs: 5 });
      expect(s).toMatchObject({ status: "synced", release: R1, resumed: 0, bytesFetched: s.bytes });
      expect(requests.find((r) => r.path === TILE)?.range).toBe(`bytes=${whole.length >> 1}-`);
      expect((await fs.readFile(path.join(other, ...TILE.split("/")))).equals(whole)).toBe(true);
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  }, 120_000);
});
