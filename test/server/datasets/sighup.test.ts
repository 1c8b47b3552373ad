/**
 * The real signal: a server process (server/main.ts) with pointer polling off serves the stations
 * release it started with until it receives SIGHUP, then the release `current.txt` names. (That a
 * poll interval of 0 never polls is reload.test.ts's, with a fake clock: waiting here for a poll
 * that must not come could only be a guess.)
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
/** The server's log (stderr), as it comes. */
let log = "";

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
  child.stderr!.on("data", (d: Buffer) => (log += d.toString("utf8")));
  base = await logLine("listening", (line) => line.url as string);
}, 300_000);

/** The first log line with this `msg` whose `pick` gives a value; fails when the server exits first. */
function logLine<T>(msg: string, pick: (line: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const look = (): void => {
      for (const text of log.split("\n")) {
        if (!text.startsWith("{") || !text.includes(`"msg":"${msg}"`)) continue;
        const value = pick(JSON.parse(text) as Record<string, unknown>);
        if (value !== undefined) {
          child!.stderr!.off("data", look);
          child!.off("exit", exited);
          resolve(value);
          return;
        }
      }
    };
    const exited = (code: number | null): void => reject(new Error(`server exited ${code} before logging "${msg}": ${log.slice(-1000)}`));
    child!.stderr!.on("data", look);
    child!.once("exit", exited);
    look();
  });
}

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child!.once("exit", r));
  }
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe("SIGHUP", () => {
  it("switches to the release current.txt names only when the signal comes (polling off)", async () => {
    expect(await stationsRelease()).toBe("20261101T000000Z");
    await pointAt(dir, "stations", "20261102T000000Z");
    expect(await stationsRelease()).toBe("20261101T000000Z");
    const finished = logLine("reload finished", (line) => line.outcomes as Array<{ dataset: string; result: string; release?: string }>);
    child!.kill("SIGHUP");
    const outcomes = await finished;
    expect(outcomes.find((o) => o.dataset === "stations")).toMatchObject({ result: "swapped", release: "20261102T000000Z" });
    expect(await stationsRelease()).toBe("20261102T000000Z");
  }, 60_000);
});
