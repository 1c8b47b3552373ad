/**
 * HTTP capacity and cost of the real server, against a bare node:http server in the same run.
 *
 *   npm run bench -- http [--duration 5] [--only search,SYNOP] [--cache on,off] [--encodings identity,browser]
 *                         [--against ../other-checkout] [--against-env GEODATA_WORKER_POLICY=spread]
 *                         [--rate 2000] [--no-latency] [--workers 1] [--server-cores 0] [--load-cores 1]
 *                         [--seed 20261123] [--mix-size 65536] [--rounds 1] [--against ../other-checkout]
 *                         [--data-dir DIR] [--cpu-prof DIR] [--bare-work 10,25,50] [--bare-spin 10,25,50]
 *
 * The server (`scripts/start.mjs --no-default-build`, GEODATA_WORKERS=1 unless --workers) runs on
 * --server-cores and the load generator on --load-cores (taskset): on a small machine a load
 * generator beside the server takes its CPU and the figures measure the generator. For each
 * request mix (bench/http-mixes.ts), response cache on and off (GEODATA_RESPONSE_CACHE_MB=0), and
 * identity and a browser's Accept-Encoding:
 * - capacity: wrk for --duration seconds, 50 connections: req/s, and the server's CPU time
 *   (user + system, from /proc) per request answered;
 * - at a fixed offered rate (--rate req/s, far below every mix's capacity): p50 and p99 latency,
 *   and the server's CPU per request there too. At capacity wrk waits on the slower server and
 *   each answer's write wakes it, on the server's core; at a fixed rate both sides wait, the bare
 *   server included, so that column compares a server to bare node:http at a production-like load.
 * A bare node:http server answering a fixed 70-byte JSON is measured the same way at the start
 * and the end of every round; a CPU ratio is taken in each round, to that round's bare runs (a slow
 * phase of the machine then moves both sides), and reported as the rounds' mean and range.
 *
 * --against DIR runs a second checkout's server (its own sources, compiled by its start script)
 * on the same data, and --against-env K=V,... gives that variant (or, alone, this checkout) more
 * environment; the variants alternate A B A B for --rounds rounds, and the report gives each
 * one's mean and spread: the measure of a change.
 *
 * The mixes are large (65,536 targets by default) so that within a run most queries are new:
 * the report gives the share of requests that repeated a target. The warm-up before each mix
 * sends it backwards, so a run that does not go through the whole mix meets none of its targets.
 * Data: the integration tests' .cache/test-data (built if missing), or --data-dir (a scale rehearsal's data directory: the
 * station mixes are drawn from its stations). --cpu-prof DIR writes each server run's CPU profile
 * (node --cpu-prof) into DIR: where a mix's time goes. --bare-work W,... also runs the bare server
 * doing W µs of memory-bound work a request (random reads of a large array, calibrated in
 * process), each round: what a request whose work takes W µs costs here over HTTP (docs/http.md);
 * --bare-spin W,... the same with a busy loop on the clock, which costs more. Writes
 * bench-results/http-<time>.{json,md} (gitignored). Speed is never asserted: this prints and records.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { ensureDefaultData } from "../test/helpers/default-data.ts";
import { buildMixes, DEFAULT_SEED, readPlaces, reportingStations, type Mix } from "./http-mixes.ts";
import { treeCpuMs } from "./proc-memory.ts";
import { freePort, waitForHealth } from "./server-ready.ts";
import { missingTools, runFixedRate, runWrk } from "./wrk.ts";

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const a = args[i]!;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : (args[i + 1] ?? fallback);
}
function integerOption(name: string, fallback: number, min: number): number {
  const text = option(name, String(fallback));
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name}: expected an integer of at least ${min}, got "${text}"`);
  return value;
}
const list = (name: string, fallback: string): string[] => option(name, fallback).split(",").map((s) => s.trim()).filter(Boolean);

const duration = integerOption("duration", 5, 1);
const connections = integerOption("connections", 50, 1);
const rate = integerOption("rate", 2000, 1);
const latency = !process.argv.includes("--no-latency");
const workers = integerOption("workers", 1, 1);
const serverCores = option("server-cores", "0");
const loadCores = option("load-cores", "1");
const seed = integerOption("seed", DEFAULT_SEED, 0);
const mixSize = integerOption("mix-size", 65_536, 1);
const rounds = integerOption("rounds", 1, 1);
const against = option("against", "");
const cpuProfDir = option("cpu-prof", "");
/** µs of work a request for the bare server's extra runs (--bare-work: memory reads; --bare-spin: a busy loop). */
const microseconds = (name: string): number[] =>
  list(name, "").map((w) => {
    const us = Number(w);
    if (!Number.isInteger(us) || us <= 0) throw new Error(`--${name}: expected whole µs above 0, got "${w}"`);
    return us;
  });
const bareWork = [...microseconds("bare-work").map((us) => ({ us, kind: "reads" as const })), ...microseconds("bare-spin").map((us) => ({ us, kind: "spin" as const }))];
/** Extra environment of variant B (`K=V,K=V`); with no --against, B is this checkout with it. */
const againstEnv = Object.fromEntries(list("against-env", "").map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
const only = list("only", "");
const caches = list("cache", "on,off");
const ENCODINGS: Record<string, string> = { identity: "identity", browser: "gzip, deflate, br" };
const encodings = list("encodings", "identity,browser");
for (const c of caches) if (c !== "on" && c !== "off") throw new Error(`--cache: expected on and/or off, got "${c}"`);
for (const e of encodings) if (!(e in ENCODINGS)) throw new Error(`--encodings: expected identity and/or browser, got "${e}"`);

const KEY = "bench-key-0123456789abcdef";
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(JSON.stringify({ status: "OK", code: 200, content: { lat: 48.86, lon: 2.35 } }).padEnd(70));
// --bare-work: about this many µs of work a request, random reads of a 64 MiB array (memory-bound,
// as a handler reading an index is; the count calibrated in process at start); --bare-spin: a busy
// loop on the clock for that long instead.
const workUs = Number(process.argv[2] ?? 0);
const spin = process.argv[3] === "spin";
const table = workUs > 0 && !spin ? new Float64Array(8 << 20).fill(1) : undefined;
let seed = 1, sink = 0;
const reads = (n) => { for (let i = 0; i < n; i++) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; sink += table[seed & 0x7fffff]; } };
let readsPerRequest = 0;
if (table) {
  const before = process.cpuUsage();
  reads(4000000);
  const used = process.cpuUsage(before);
  readsPerRequest = Math.round((4000000 * workUs) / (used.user + used.system));
}
const server = http.createServer((req, res) => {
  if (readsPerRequest > 0) reads(readsPerRequest);
  else if (spin && workUs > 0) { const end = performance.now() + workUs / 1000; while (performance.now() < end); }
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.byteLength });
  res.end(body);
});
server.listen(Number(process.argv[1]), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

interface Variant {
  name: string;
  /** The checkout whose server runs. */
  root: string;
  env: Record<string, string>;
}

interface Running {
  child: ChildProcess;
  port: number;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** A server pinned to the server cores, ready when /health answers. */
async function startPinned(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const port = await freePort();
  const child = spawn("taskset", ["-c", serverCores, process.execPath, ...args.map((a) => a.replace("{port}", String(port)))], { cwd, env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const health = async (): Promise<void> => waitForHealth(port, 50, () => (child.exitCode !== null ? `server exited before answering /health:\n${stderr}` : undefined));
  if (args[0] === "-e") {
    // The bare server has no /health: any answer will do.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`bare server exited:\n${stderr}`);
      try {
        await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } else await health();
  return { child, port };
}

const startBare = (workUs = 0, kind: "reads" | "spin" = "reads"): Promise<Running> => startPinned(["-e", BARE_SERVER, "{port}", String(workUs), kind], PROJECT_ROOT, process.env);

function startServer(variant: Variant, dataDir: string, cache: string): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_API_KEYS: KEY, GEODATA_WORKERS: String(workers), GEODATA_RELEASE_POLL_MS: "0", GEODATA_SHUTDOWN_DELAY_MS: "0", ...variant.env };
  if (cache === "off") env.GEODATA_RESPONSE_CACHE_MB = "0";
  const profile = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [];
  return startPinned([...profile, path.join(variant.root, "scripts", "start.mjs"), "--no-default-build"], variant.root, env);
}

interface Row {
  round: number;
  variant: string;
  cache: string;
  mix: string;
  encoding: string;
  reqPerSec: number;
  cpuUsPerRequest: number;
  /** Requests that repeated a target already sent in the run (the mix cycles). */
  repeatedShare: number;
  non2xx: number;
  socketErrors: number;
  p50Ms?: number;
  p99Ms?: number;
  /** The server's CPU per request at the fixed offered rate (the latency run), µs. */
  fixedCpuUs?: number;
}

async function measure(round: number, variant: string, cache: string, target: Running, mix: Mix, encoding: string): Promise<Row> {
  const url = `http://127.0.0.1:${target.port}`;
  const cpu0 = treeCpuMs(target.child.pid!);
  const capacity = await runWrk({ cores: loadCores, url, paths: mix.paths, key: KEY, encoding: ENCODINGS[encoding]!, seconds: duration, connections });
  const cpuMs = treeCpuMs(target.child.pid!) - cpu0;
  const row: Row = {
    round,
    variant,
    cache,
    mix: mix.name,
    encoding,
    reqPerSec: Math.round(capacity.reqPerSec),
    cpuUsPerRequest: Number(((cpuMs * 1000) / capacity.requests).toFixed(1)),
    repeatedShare: Number((Math.max(0, capacity.requests - mix.paths.length) / capacity.requests).toFixed(2)),
    non2xx: capacity.non2xx,
    socketErrors: capacity.socketErrors,
  };
  if (latency) {
    const fixedCpu0 = treeCpuMs(target.child.pid!);
    const fixed = await runFixedRate({ cores: loadCores, url, paths: mix.paths, key: KEY, encoding: ENCODINGS[encoding]!, seconds: duration, rate });
    row.fixedCpuUs = Number((((treeCpuMs(target.child.pid!) - fixedCpu0) * 1000) / fixed.requests).toFixed(1));
    row.p50Ms = fixed.p50;
    row.p99Ms = fixed.p99;
    row.non2xx += fixed.non2xx;
    row.socketErrors += fixed.errors;
  }
  process.stdout.write(`${variant} round ${round} ${mix.name} cache ${cache} ${encoding}: ${row.reqPerSec} req/s, ${row.cpuUsPerRequest} µs CPU/request${latency ? `; at ${rate} req/s ${row.fixedCpuUs} µs CPU/request, p50 ${row.p50Ms} ms p99 ${row.p99Ms} ms` : ""}${row.non2xx ? `, ${row.non2xx} non-2xx` : ""}\n`);
  return row;
}

// ---- setup (untimed) -------------------------------------------------------------------
const missing = missingTools();
if (missing) {
  process.stderr.write(`${missing}\n`);
  process.exit(2);
}
const STEPS = ["places", "admin", "elevation", "stations", "forecast"];
const dataDirOption = option("data-dir", "");
const dataDir = dataDirOption !== "" ? path.resolve(dataDirOption) : await ensureDefaultData(STEPS);
const places = await readPlaces();
// A rehearsal's data directory may hold one dataset: the stations are read only for their mixes.
const stations = only.length === 0 || only.includes("METAR") || only.includes("SYNOP") ? await reportingStations(dataDir) : { METAR: [], SYNOP: [] };
const mixes = buildMixes(places, stations, seed, mixSize).filter((m) => m.name !== "openapi.json" && (only.length === 0 || only.includes(m.name)));
const variants: Variant[] = [{ name: "A", root: PROJECT_ROOT, env: {} }];
if (against || Object.keys(againstEnv).length > 0) variants.push({ name: "B", root: against ? path.resolve(against) : PROJECT_ROOT, env: againstEnv });
const describeVariant = (v: Variant): string => `${path.relative(PROJECT_ROOT, v.root) || "this checkout"}${Object.keys(v.env).length ? ` with ${Object.entries(v.env).map(([k, x]) => `${k}=${x}`).join(" ")}` : ""}`;
process.stdout.write(
  `server on cores ${serverCores} (GEODATA_WORKERS=${workers}), load on cores ${loadCores}; wrk ${connections} connections, ${duration} s a run; ` +
    `latency ${latency ? `at ${rate} req/s` : "off"}; mixes of ${mixSize} targets, seed ${seed}; variants ${variants.map((v) => `${v.name} = ${describeVariant(v)}`).join(", ")}\n`,
);

const rows: Row[] = [];
const workMixName = (us: number, kind: "reads" | "spin"): string => `bare node:http + ${us} µs of ${kind === "spin" ? "busy loop" : "memory reads"}`;
const bareMix: Mix = { name: "bare node:http", paths: ["/"] };
for (let round = 1; round <= rounds; round++) {
  const bare = await startBare();
  try {
    for (const e of encodings) rows.push(await measure(round, "bare", "-", bare, bareMix, e));
    for (const variant of variants) {
      for (const cache of caches) {
        const server = await startServer(variant, dataDir, cache);
        try {
          for (const mix of mixes) {
            // Warm-up: the code paths compiled, the caches (when on) filled as a running server's
            // are. The mix goes backwards, from its end: the measured run starts at its beginning,
            // and would otherwise ask again, as second sights, the targets the warm-up asked (the
            // response cache keeps an answer on its second request). A mix that repeats still
            // fills the caches with what it repeats.
            await runWrk({ cores: loadCores, url: `http://127.0.0.1:${server.port}`, paths: [...mix.paths].reverse(), key: KEY, encoding: "identity", seconds: 1, connections });
            for (const e of encodings) rows.push(await measure(round, variant.name, cache, server, mix, e));
          }
        } finally {
          await stop(server.child);
        }
      }
    }
    for (const e of encodings) rows.push(await measure(round, "bare", "-", bare, bareMix, e));
  } finally {
    await stop(bare.child);
  }
  for (const { us, kind } of bareWork) {
    const busy = await startBare(us, kind);
    try {
      rows.push(await measure(round, "bare+work", "-", busy, { name: workMixName(us, kind), paths: ["/"] }, "identity"));
    } finally {
      await stop(busy.child);
    }
  }
}

// ---- report ------------------------------------------------------------------------------
const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
const bareRows = rows.filter((r) => r.variant === "bare");
const bareRate = mean(bareRows.map((r) => r.reqPerSec));
const bareCpu = mean(bareRows.map((r) => r.cpuUsPerRequest));
const bareFixedCpu = latency ? mean(bareRows.map((r) => r.fixedCpuUs!)) : NaN;
/** Bare node:http's CPU per request in one round (its runs at the round's start and end): the round's ratios divide by it, so a slow phase of the machine moves both sides. */
const bareOfRound = (round: number, fixed: boolean): number => mean(bareRows.filter((r) => r.round === round).map((r) => (fixed ? r.fixedCpuUs! : r.cpuUsPerRequest)));
const spread = (xs: number[], digits = 0): string => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})` : "");

interface Summary {
  mix: string;
  cache: string;
  encoding: string;
  variant: string;
  reqPerSec: number[];
  cpu: number[];
  p50: number[];
  p99: number[];
  fixedCpu: number[];
  /** CPU per request over bare node:http's in the same round, one per round. */
  cpuRatio: number[];
  fixedRatio: number[];
  repeated: number;
}
const summaries: Summary[] = [];
for (const mix of mixes)
  for (const cache of caches)
    for (const encoding of encodings)
      for (const variant of variants) {
        const rs = rows.filter((r) => r.mix === mix.name && r.cache === cache && r.encoding === encoding && r.variant === variant.name);
        if (rs.length === 0) continue;
        summaries.push({
          mix: mix.name,
          cache,
          encoding,
          variant: variant.name,
          reqPerSec: rs.map((r) => r.reqPerSec),
          cpu: rs.map((r) => r.cpuUsPerRequest),
          p50: rs.flatMap((r) => (r.p50Ms === undefined ? [] : [r.p50Ms])),
          p99: rs.flatMap((r) => (r.p99Ms === undefined ? [] : [r.p99Ms])),
          fixedCpu: rs.flatMap((r) => (r.fixedCpuUs === undefined ? [] : [r.fixedCpuUs])),
          cpuRatio: rs.map((r) => r.cpuUsPerRequest / bareOfRound(r.round, false)),
          fixedRatio: rs.flatMap((r) => (r.fixedCpuUs === undefined ? [] : [r.fixedCpuUs / bareOfRound(r.round, true)])),
          repeated: mean(rs.map((r) => r.repeatedShare)),
        });
      }

const when = new Date().toISOString();
const md: string[] = [
  `# HTTP bench ${when}`,
  "",
  `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}. Server on cores ${serverCores} (GEODATA_WORKERS=${workers}), wrk (${connections} connections, ${duration} s) and bench/fixed-rate.mjs on cores ${loadCores}. Mixes of ${mixSize} targets, seed ${seed}; ${rounds} round(s).`,
  `Bare node:http (70-byte JSON): ${Math.round(bareRate)} req/s${spread(bareRows.map((r) => r.reqPerSec))}, ${bareCpu.toFixed(1)} µs CPU/request${spread(bareRows.map((r) => r.cpuUsPerRequest), 1)}${latency ? `; at ${rate} req/s ${bareFixedCpu.toFixed(1)} µs CPU/request${spread(bareRows.map((r) => r.fixedCpuUs!), 1)}, p50 ${mean(bareRows.map((r) => r.p50Ms!)).toFixed(2)} ms, p99 ${mean(bareRows.map((r) => r.p99Ms!)).toFixed(2)} ms` : ""}.`,
  ...variants.map((v) => `Variant ${v.name}: ${describeVariant(v)}.`),
  "",
  `| mix | cache | encoding | variant | req/s | × bare | CPU µs/request | × bare | at ${rate} req/s: CPU µs/request | × bare | p50 ms | p99 ms | repeated |`,
  `|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
  ...summaries.map((s) => {
    const r = mean(s.reqPerSec);
    const c = mean(s.cpu);
    return `| ${s.mix} | ${s.cache} | ${s.encoding} | ${s.variant} | ${Math.round(r)}${spread(s.reqPerSec)} | ${(r / bareRate).toFixed(2)} | ${c.toFixed(1)}${spread(s.cpu, 1)} | ${mean(s.cpuRatio).toFixed(2)}${spread(s.cpuRatio, 2)} | ${s.fixedCpu.length ? `${mean(s.fixedCpu).toFixed(1)}${spread(s.fixedCpu, 1)}` : "-"} | ${s.fixedRatio.length ? `${mean(s.fixedRatio).toFixed(2)}${spread(s.fixedRatio, 2)}` : "-"} | ${s.p50.length ? mean(s.p50).toFixed(2) : "-"} | ${s.p99.length ? mean(s.p99).toFixed(2) : "-"} | ${(s.repeated * 100).toFixed(0)} % |`;
  }),
  "",
];
if (bareWork.length > 0) {
  md.push(
    "Bare node:http doing W µs of work a request (--bare-work: random reads of a 64 MiB array, W µs of CPU in process; --bare-spin: a busy loop on the clock for W µs). Beyond: what a request costs over W plus bare.",
    "",
    "| work | µs | CPU µs/request | × bare | beyond µs |",
    "|---|---|---|---|---|",
    ...bareWork.map(({ us, kind }) => {
      const cpu = rows.filter((r) => r.mix === workMixName(us, kind)).map((r) => r.cpuUsPerRequest);
      return `| ${kind === "spin" ? "busy loop" : "memory reads"} | ${us} | ${mean(cpu).toFixed(1)}${spread(cpu, 1)} | ${(mean(cpu) / bareCpu).toFixed(2)} | ${(mean(cpu) - us - bareCpu).toFixed(1)} |`;
    }),
    "",
  );
}
if (variants.length > 1) {
  md.push("B against A, CPU µs per request (mean of the rounds; negative: B cheaper):", "");
  for (const s of summaries.filter((x) => x.variant === "B")) {
    const a = summaries.find((x) => x.variant === "A" && x.mix === s.mix && x.cache === s.cache && x.encoding === s.encoding);
    if (a) md.push(`- ${s.mix}, cache ${s.cache}, ${s.encoding}: ${(((mean(s.cpu) - mean(a.cpu)) / mean(a.cpu)) * 100).toFixed(1)} %`);
  }
  md.push("");
}
const outDir = path.join(PROJECT_ROOT, "bench-results");
await fs.mkdir(outDir, { recursive: true });
const stamp = when.replace(/[:.]/g, "-");
await fs.writeFile(path.join(outDir, `http-${stamp}.json`), JSON.stringify({ when, settings: { duration, connections, rate, workers, serverCores, loadCores, seed, mixSize, rounds, variants }, rows }, null, 2) + "\n");
await fs.writeFile(path.join(outDir, `http-${stamp}.md`), md.join("\n"));
process.stdout.write("\n" + md.join("\n") + `\nwritten: bench-results/http-${stamp}.{json,md}\n`);
