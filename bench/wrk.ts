/**
 * The HTTP bench's load generators, each pinned to its own core with taskset so that it never
 * takes CPU from the server under test:
 * - capacity: wrk (Debian package `wrk`, written in C), cycling through a mix of request targets
 *   given to its Lua script, each request formatted once before the run;
 * - latency at a fixed offered rate: bench/fixed-rate.mjs, an open-loop generator (a rate far
 *   below capacity costs the generator little, so its JavaScript does not matter there).
 */
import { execFileSync, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Why wrk or taskset cannot run here, or undefined when both can. */
export function missingTools(): string | undefined {
  for (const [tool, pkg] of [["wrk", "wrk"], ["taskset", "util-linux"]] as const) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      return `${tool} not found: install it with \`apt-get install ${pkg}\` (Debian), then run the bench again`;
    }
  }
  return undefined;
}

// Requests are formatted in init(): wrk sets its Host header only then.
const LUA = `
local requests = {}
init = function(args)
  local headers = { ["X-Api-Key"] = os.getenv("GEODATA_BENCH_KEY"), ["Accept-Encoding"] = os.getenv("GEODATA_BENCH_ENCODING") }
  for line in io.lines(os.getenv("GEODATA_BENCH_MIX")) do requests[#requests + 1] = wrk.format("GET", line, headers) end
end
local i = 0
request = function()
  i = i + 1
  if i > #requests then i = 1 end
  return requests[i]
end
`;

export interface WrkResult {
  requests: number;
  seconds: number;
  reqPerSec: number;
  /** Answers other than 2xx and 3xx. */
  non2xx: number;
  socketErrors: number;
  /** With `latency`: wrk's latency distribution (milliseconds). */
  latency?: { p50Ms: number; p99Ms: number; maxMs: number };
}

/** Runs wrk on `cores` against `url` for `seconds` with `connections`, sending `paths` in turn. */
export async function runWrk(o: { cores: string; url: string; paths: readonly string[]; key: string; encoding: string; seconds: number; connections: number; latency?: boolean }): Promise<WrkResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-wrk-"));
  try {
    const script = path.join(dir, "mix.lua");
    const mix = path.join(dir, "mix.txt");
    await fs.writeFile(script, LUA);
    await fs.writeFile(mix, o.paths.join("\n") + "\n");
    // wrk gives up on a request after 2 s by default; a mix of heavy requests (100 forecast points
    // each) queued on 50 connections takes longer than that, and must count, not time out.
    const args = ["-c", o.cores, "wrk", "-t1", `-c${o.connections}`, `-d${o.seconds}s`, "--timeout", "60s", ...(o.latency ? ["--latency"] : []), "-s", script, o.url];
    const env = { ...process.env, GEODATA_BENCH_MIX: mix, GEODATA_BENCH_KEY: o.key, GEODATA_BENCH_ENCODING: o.encoding };
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn("taskset", args, { env, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.stderr.on("data", (d: Buffer) => (text += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}:\n${text}`))));
    });
    return parseWrk(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The figures of wrk's report. */
export function parseWrk(text: string): WrkResult {
  const total = /(\d+) requests in ([\d.]+)(m?s)/.exec(text);
  if (!total) throw new Error(`wrk's report has no "N requests in T": ${text}`);
  const seconds = Number(total[2]) / (total[3] === "ms" ? 1000 : 1);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const ms = (m: RegExpExecArray | null): number => (m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2]!] ?? Number.NaN) : Number.NaN);
  const latency = /Latency Distribution/.test(text)
    ? { p50Ms: ms(/^\s+50%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(text)), p99Ms: ms(/^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(text)), maxMs: ms(/Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)/.exec(text)) }
    : undefined;
  return {
    requests: Number(total[1]),
    seconds,
    reqPerSec: Number(total[1]) / seconds,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
    ...(latency ? { latency } : {}),
  };
}

export interface LatencyResult {
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/**
 * Latency at a fixed offered rate, from an open-loop generator (bench/fixed-rate.mjs) in a child
 * process pinned to `cores`. (autocannon's fixed rate builds its whole request list for every
 * connection: with a mix of 65,536 targets it spent seconds doing so and its latencies measured itself.)
 */
export async function runFixedRate(o: { cores: string; url: string; paths: readonly string[]; key: string; encoding: string; seconds: number; rate: number }): Promise<LatencyResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-rate-"));
  try {
    const input = path.join(dir, "input.json");
    await fs.writeFile(input, JSON.stringify(o));
    const script = fileURLToPath(new URL("./fixed-rate.mjs", import.meta.url));
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn("taskset", ["-c", o.cores, process.execPath, script, input], { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`the fixed-rate generator exited ${code}:\n${err}`))));
    });
    return JSON.parse(out) as LatencyResult;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
