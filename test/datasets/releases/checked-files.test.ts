/**
 * The checks remembered (datasets/releases/checked-files.ts): a file's version changes with any
 * write, even one whose modification time is set back (ctime); two writers saving one after the
 * other keep both's entries; an entry whose file is gone or changed is dropped at the next save;
 * an unreadable memory (empty, foreign, torn) is reported and starts afresh.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHECKED_FILE, CheckedFiles, fileVersion } from "../../../datasets/releases/checked-files.ts";

const A = "a".repeat(64);
const B = "b".repeat(64);
let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-checked-"));
  await fs.mkdir(path.join(dir, "releases", "places", "20261101T000000Z"), { recursive: true });
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const file = (name: string) => path.join(dir, "releases", "places", "20261101T000000Z", name);

describe("fileVersion", () => {
  it("changes when the file is written in place, even with its modification time set back", async () => {
    await fs.writeFile(file("x"), "0123456789");
    const mtime = new Date(Date.UTC(2026, 0, 1));
    await fs.utimes(file("x"), mtime, mtime);
    const before = await fileVersion(file("x"));
    const handle = await fs.open(file("x"), "r+");
    await handle.write(Buffer.from("9"), 0, 1, 0);
    await handle.close();
    await fs.utimes(file("x"), mtime, mtime);
    const after = await fileVersion(file("x"));
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // Same device, inode, size and modification time: only the status-change time differs.
    expect(after!.split(":").slice(0, 4)).toEqual(before!.split(":").slice(0, 4));
    expect(await fileVersion(file("absent"))).toBeUndefined();
  });
});

describe("CheckedFiles", () => {
  it("remembers across opens, merges two writers, and drops entries of files gone or changed", async () => {
    await fs.writeFile(file("x"), "x");
    await fs.writeFile(file("y"), "y");
    await fs.writeFile(file("z"), "z");
    const [vx, vy, vz] = [await fileVersion(file("x")), await fileVersion(file("y")), await fileVersion(file("z"))];
    const one = await CheckedFiles.open(dir);
    const two = await CheckedFiles.open(dir);
    one.remember(vx!, A, file("x"));
    one.remember(vz!, A, file("z"));
    two.remember(vy!, B, file("y"));
    await one.save();
    await two.save();
    const again = await CheckedFiles.open(dir);
    expect([again.sha256Of(vx!), again.sha256Of(vy!), again.sha256Of(vz!)]).toEqual([A, B, A]);
    const saved = JSON.parse(await fs.readFile(path.join(dir, "releases", CHECKED_FILE), "utf8")) as { format: string; files: Record<string, { path: string }> };
    expect(saved.format).toBe("geodata-checked");
    expect(saved.files[vy!]!.path).toBe("releases/places/20261101T000000Z/y");

    await fs.rm(file("x"));
    await fs.appendFile(file("y"), "more");
    again.forget(vz!);
    await again.save();
    const last = await CheckedFiles.open(dir);
    expect(last.size).toBe(0);
  });

  it("starts afresh from an unreadable memory, and says why", async () => {
    await fs.mkdir(path.join(dir, "releases"), { recursive: true });
    for (const [text, why] of [["", /JSON/], ["{\"format\":\"other\",\"formatVersion\":1,\"files\":{}}", /expected geodata-checked version 1, got "other" version 1/], ["{\"format\":\"geodata-checked\",\"formatVersion\":1,\"files\":{\"1:2", /JSON/]] as const) {
      await fs.writeFile(path.join(dir, "releases", CHECKED_FILE), text);
      const checked = await CheckedFiles.open(dir);
      expect(checked.size).toBe(0);
      expect(checked.unreadable).toMatch(why);
      expect(checked.unreadable).toContain(`releases/${CHECKED_FILE}`);
      await checked.save();
      expect((await CheckedFiles.open(dir)).unreadable).toBeUndefined();
    }
  });
});
