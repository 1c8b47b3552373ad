/**
 * SHA-256 of whole files in a child process (datasets/releases/hash-files.ts): the digests of
 * FIPS 180-2's examples ("abc", the empty message) and of a file longer than one 4 MiB chunk
 * (one million "a", FIPS 180-2 appendix B.3; five times over, checked against node:crypto);
 * a missing file rejects with its error code; the hashing process is gone when the call returns.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Files } from "../../../datasets/releases/hash-files.ts";

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-hash-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The node processes whose parent is this one. */
async function childNodes(): Promise<number[]> {
  const text = await fs.readFile(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

describe("sha256Files", () => {
  it("gives FIPS 180-2's digests, in the order of the files", async () => {
    await fs.writeFile(path.join(dir, "abc"), "abc");
    await fs.writeFile(path.join(dir, "empty"), "");
    const digests = await sha256Files([path.join(dir, "abc"), path.join(dir, "empty")]);
    expect(digests).toEqual([
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ]);
  });

  it("hashes a file of several chunks whole", async () => {
    // FIPS 180-2 B.3: one million "a" hash to cdc76e5c...; five millions span two 4 MiB chunks.
    const million = Buffer.alloc(1_000_000, "a");
    await fs.writeFile(path.join(dir, "one"), million);
    const fiveMillion = Buffer.concat([million, million, million, million, million]);
    await fs.writeFile(path.join(dir, "five"), fiveMillion);
    const [one, five] = await sha256Files([path.join(dir, "one"), path.join(dir, "five")]);
    expect(one).toBe("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    expect(five).toBe(createHash("sha256").update(fiveMillion).digest("hex"));
  });

  it("rejects a missing file with its error code, and leaves no hashing process behind", async () => {
    await fs.writeFile(path.join(dir, "abc"), "abc");
    const before = await childNodes();
    await expect(sha256Files([path.join(dir, "abc"), path.join(dir, "missing")])).rejects.toMatchObject({ code: "ENOENT" });
    expect(await childNodes()).toEqual(before);
  });
});
