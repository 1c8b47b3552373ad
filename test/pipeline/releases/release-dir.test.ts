/**
 * A build remembers the checksums it writes into release.json (pipeline/releases/release-dir.ts,
 * datasets/releases/checked-files.ts): the server's check of the new release then hashes none of
 * its files, and hashes again only a file changed since. Pruning a release that shares files
 * with the one kept (hard links: their ctime changes) keeps those checks. Real data: the
 * embedded default's elevation files, copied into an assembly as a step would write them.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckedFiles } from "../../../datasets/releases/checked-files.ts";
import { verifyRelease } from "../../../datasets/releases/verify.ts";
import { beginRelease, finishRelease, publishRelease, pruneReleases } from "../../../pipeline/releases/release-dir.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkTree } from "../../helpers/releases.ts";

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-release-dir-"));
}, 600_000);

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("finishRelease", () => {
  it("remembers what it hashed: the check of the release reads no file, then only the one changed", async () => {
    const assembly = await beginRelease(dir, "elevation", new Date(Date.UTC(2026, 10, 1)));
    await fs.cp(path.join(await defaultDatasetDir("elevation"), "elevation"), path.join(assembly.dir, "elevation"), { recursive: true });
    const manifest = await finishRelease(assembly, { builtAt: "2026-11-01T00:00:00Z", builder: { kind: "step" }, sources: [], counts: {} });
    const expected = { dataset: "elevation" as const, id: assembly.id };
    const first = await verifyRelease(assembly.finalDir, expected, (p) => p, await CheckedFiles.open(dir));
    expect(first.cost).toEqual({ files: manifest.files.length, hashed: 0, hashedBytes: 0 });

    // A file rewritten with the same bytes: another version, hashed again (and found right).
    const index = manifest.files.find((f) => f.path.endsWith("index.bin")) ?? manifest.files[0]!;
    const file = path.join(assembly.finalDir, index.path);
    const bytes = await fs.readFile(file);
    await fs.rm(file);
    await fs.writeFile(file, bytes);
    const second = await verifyRelease(assembly.finalDir, expected, (p) => p, await CheckedFiles.open(dir));
    expect(second.cost).toEqual({ files: manifest.files.length, hashed: 1, hashedBytes: index.size });
  }, 120_000);

  it("keeps the checks of the files a pruned release shared with the one kept", async () => {
    const dataDir = path.join(dir, "prune");
    const r1 = await beginRelease(dataDir, "elevation", new Date(Date.UTC(2026, 10, 1)));
    await fs.cp(path.join(await defaultDatasetDir("elevation"), "elevation"), path.join(r1.dir, "elevation"), { recursive: true });
    await finishRelease(r1, { builtAt: "2026-11-01T00:00:00Z", builder: { kind: "step" }, sources: [], counts: {} });
    const r2 = await beginRelease(dataDir, "elevation", new Date(Date.UTC(2026, 10, 2)));
    await linkTree(path.join(r1.finalDir, "elevation"), path.join(r2.dir, "elevation"));
    const manifest = await finishRelease(r2, { builtAt: "2026-11-02T00:00:00Z", builder: { kind: "step" }, sources: [], counts: {} });
    await publishRelease(dataDir, "elevation", r2.id);
    expect(await pruneReleases(dataDir, "elevation", 1)).toEqual([r1.id]);
    const { cost } = await verifyRelease(r2.finalDir, { dataset: "elevation", id: r2.id }, (p) => p, await CheckedFiles.open(dataDir));
    expect(cost).toEqual({ files: manifest.files.length, hashed: 0, hashedBytes: 0 });
  }, 120_000);
});
