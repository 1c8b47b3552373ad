/**
 * The real signal: a server process (server/main.ts) with pointer polling off serves the stations
 * release it started with until it receives SIGHUP, then the release `current.txt` names.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";
import { linkRelease, pointAt } from "../../helpers/releases.ts";

let dir: string;
let child: ChildProcess | undefined;
let base = "";

async function stationsRelease(): Promise<string | undefined> {
  const body = (await (await fetch(`${base}/health`)).json()) as { content: { datasets: Array<{ name: string; release?: string }> } };
  return body.content.datasets.find((d) => d.name === "stations")?.release;
}

beforeAll(async () => {
  const source = await defaultDatasetDir("stations");
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-sighup-"));
  for (const id of ["20261101T000000Z", "20261102T000000Z"]) await linkRelease(dir, "stations", id, source);
  await pointAt(dir, "stations", "20261101T000000Z");
  // node --import tsx (not the tsx wrapper): the child is the server itself, so signals reach it.
  child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "main.ts")], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_DATA_DIR: dir, GEODATA_API_KEYS: "sighup-key-0123456789abcdef", GEODATA_RELEASE_POLL_MS: "0", GEODATA_WORKERS: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  base = await new Promise<string>((resolve, reject) => {
    let err = "";
    child!.stderr!.on("data", (d: Buffer) => {
      err += d.toString("utf8");
      const m = /"msg":"listening".*?"url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) resolve(m[1]!);
    });
    child!.on("exit", (code) => reject(new Error(`server exited ${code}: ${err.slice(-1000)}`)));
  });
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child!.once("exit", r));
  }
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("SIGHUP", () => {
  it("switches to the release current.txt names only when the signal comes (polling off)", async () => {
    expect(await stationsRelease()).toBe("20261101T000000Z");
    await pointAt(dir, "stations", "20261102T000000Z");
    await new Promise((r) => setTimeout(r, 500));
    expect(await stationsRelease()).toBe("20261101T000000Z");
    child!.kill("SIGHUP");
    let release: string | undefined;
    for (let i = 0; i < 100 && release !== "20261102T000000Z"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      release = await stationsRelease();
    }
    expect(release).toBe("20261102T000000Z");
  }, 60_000);
});
