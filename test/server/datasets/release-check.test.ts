/**
 * The server checks a release's files against its release.json before serving it. A release
 * copied link-first (its release.json and the pointer before its files, as a plain copy of a data
 * directory does) is pending: the old one keeps serving and the next poll tries again, until the
 * files are all there. A release with one flipped byte in an elevation tile (the fault that made
 * 231 of 2,500 elevation requests answer 503) is refused whole before the switch. /health names
 * files relative to the data directory, never by their full path. Real data: the embedded
 * default's elevation dataset.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseDirOf } from "../../../datasets/releases/layout.ts";
import { parseManifest } from "../../../datasets/releases/manifest.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, linkTree, pointAt } from "../../helpers/releases.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { until } from "../../helpers/until.ts";

const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const R3 = "20261103T000000Z";
const TILE = "elevation/srtm3/N00E010.tif";

interface DatasetHealth {
  status: string;
  release?: string;
  message?: string;
  pending?: { release: string; reason: string; since: string };
  refused?: { release: string; reason: string };
}

let dir: string;
let server: TestServer;

async function elevation(): Promise<{ state: DatasetHealth; text: string }> {
  const text = await (await server.get("/health", { key: null })).text();
  const body = JSON.parse(text) as { content: { datasets: Array<DatasetHealth & { name: string }> } };
  return { state: body.content.datasets.find((d) => d.name === "elevation")!, text };
}

/** Release `id`'s release.json, made from R1's (same files), as a copy that starts with it would write it. */
async function manifestLike(id: string): Promise<string> {
  return (await fs.readFile(path.join(releaseDirOf(dir, "elevation", R1), "release.json"), "utf8")).replaceAll(R1, id);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-release-check-"));
  await linkRelease(dir, "elevation", R1, await defaultDatasetDir("elevation"));
  await pointAt(dir, "elevation", R1);
  server = await startTestServer({ dataDir: dir, env: { GEODATA_RELEASE_POLL_MS: "100" } });
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("release check before serving", () => {
  it("keeps a release whose files are still arriving pending, serving the old one, and switches once they are all there", async () => {
    expect((await elevation()).state).toMatchObject({ status: "ready", release: R1 });
    // Link-first: release.json and the pointer, no file yet.
    const r2 = releaseDirOf(dir, "elevation", R2);
    await fs.mkdir(r2, { recursive: true });
    await fs.writeFile(path.join(r2, "release.json"), await manifestLike(R2));
    await pointAt(dir, "elevation", R2);
    await until(`${R2} pending`, async () => (await elevation()).state.pending !== undefined);
    let { state, text } = await elevation();
    expect(state).toMatchObject({ status: "ready", release: R1, pending: { release: R2 } });
    expect(state.pending!.reason).toContain(`releases/elevation/${R2}/elevation/global/etopo5.tif is not there`);
    expect(text).not.toContain(dir);
    expect((await server.get("/elevation/point/2/json?lat=0.5&lon=10.5")).status).toBe(200);

    // Half of the tile, then every other file: still pending, and still retried (not refused).
    const whole = await fs.readFile(path.join(releaseDirOf(dir, "elevation", R1), TILE));
    await fs.mkdir(path.dirname(path.join(r2, TILE)), { recursive: true });
    await fs.writeFile(path.join(r2, TILE), whole.subarray(0, whole.length >> 1));
    await linkTree(path.join(releaseDirOf(dir, "elevation", R1), "elevation"), path.join(r2, "elevation"));
    await until(`${R2} pending on the half tile`, async () => (await elevation()).state.pending?.reason.includes("bytes") === true);
    ({ state } = await elevation());
    expect(state.pending!.reason).toBe(`releases/elevation/${R2}/${TILE} has ${whole.length >> 1} of ${whole.length} bytes`);
    expect(state.refused).toBeUndefined();

    await fs.appendFile(path.join(r2, TILE), whole.subarray(whole.length >> 1));
    await until(`${R2} served`, async () => (await elevation()).state.release === R2);
    ({ state } = await elevation());
    expect(state).toMatchObject({ status: "ready", release: R2 });
    expect(state.pending).toBeUndefined();
  }, 60_000);

  it("refuses a release with one flipped byte in a tile before switching: the old one keeps answering", async () => {
    const r3 = releaseDirOf(dir, "elevation", R3);
    await linkTree(path.join(releaseDirOf(dir, "elevation", R2), "elevation"), path.join(r3, "elevation"));
    await fs.writeFile(path.join(r3, "release.json"), await manifestLike(R3));
    const bytes = await fs.readFile(path.join(r3, TILE));
    bytes[bytes.length - 5000] ^= 0x04;
    await fs.rm(path.join(r3, TILE)); // a new file: the hard link would change R2's too
    await fs.writeFile(path.join(r3, TILE), bytes);
    const listed = parseManifest(await manifestLike(R3), "release.json", { dataset: "elevation", id: R3 }).files!.find((f) => f.path === TILE)!;
    await pointAt(dir, "elevation", R3);
    await until(`${R3} refused`, async () => (await elevation()).state.refused !== undefined);
    const { state, text } = await elevation();
    expect(state).toMatchObject({ status: "ready", release: R2, refused: { release: R3 } });
    expect(state.refused!.reason).toMatch(new RegExp(`^releases/elevation/${R3}/${TILE}: expected SHA-256 ${listed.sha256}, got [0-9a-f]{64}$`));
    expect(text).not.toContain(dir);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => server.get(`/elevation/point/2/json?lat=${(0.01 + i * 0.019).toFixed(3)}&lon=10.5`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  }, 60_000);
});
