/**
 * HTTP throughput of the real server against a bare node:http server, in the same run.
 *
 *   npm run bench -- http [--duration 8] [--only reverse,search] [--connections 50] [--workers N]
 *                         [--response-cache-mb 0] [--seed 20261123] [--mix-size 4096] [--replay]
 *
 * Starts the server with `npm start -- --no-default-build` (child process, in its own process
 * group: the compile check, then the cluster of GEODATA_WORKERS workers) on the prebuilt data of
 * the integration tests (.cache/test-data, built by test/helpers/default-data.ts if missing), and a bare node:http server answering a fixed 70-byte JSON (the
 * baseline) in another child process. autocannon (in this process) drives each with 50
 * connections, over the request mixes of bench/http-mixes.ts given as autocannon's request list
 * (the baseline: its one request), once with `Accept-Encoding: identity` and once with a
 * browser's `gzip, deflate, br`. The baseline runs first and last; the
 * ratio is to the mean of its runs. Besides req/s (which on a small machine also measures the
 * load generator, sharing the cores), each run records the CPU time the server's processes used
 * per request answered (from /proc), comparable across loads, and that of this process, the load
 * generator's share. With --replay, each mix is also driven against a bare node:http server that
 * answers with the server's own answers to that mix, captured before (status, headers and body
 * bytes as sent, in that coding; replay-server.ts): what node:http, the kernel and the load
 * generator cost for exactly those bytes with no application work, so its ratio is the most any
 * node:http server sending them could reach on this machine. Each run of the real server also
 * records how many of its workers accepted connections (from the primary's log: under the
 * default GEODATA_WORKER_POLICY=pack the number follows the load, server/worker-pool.ts).
 * Writes bench-results/http-<time>.json and .md (gitignored).
 * Speed is never asserted: this prints and records.
 */
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { ensureDefaultData, TEST_DATA_DIR } from "../test/helpers/default-data.ts";
import { buildMixes, DEFAULT_MIX_SIZE, DEFAULT_SEED, readPlaces, reportingStations, type Mix } from "./http-mixes.ts";
import { processTree, treeCpuMs, type ProcMemory } from "./proc-memory.ts";
import { captureAnswers, startReplay, startScriptServer } from "./replay-server.ts";
import { freePort, waitForHealth } from "./server-ready.ts";

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return fallback;
  const a = args[i]!;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : (args[i + 1] ?? fallback);
}
const duration = Number(option("duration", "8"));
const connections = Number(option("connections", "50"));
const only = option("only", "").split(",").filter(Boolean);
const workersEnv = option("workers", "");
/** GEODATA_RESPONSE_CACHE_MB for the server: `0` measures every answer computed (no repeated query served from the cache). */
const responseCacheMb = option("response-cache-mb", "");
/** An option's integer; anything else (or one under `min`) stops the bench before it starts anything, quoting the text given. */
function integerOption(name: string, fallback: number, min: number): number {
  const text = option(name, String(fallback));
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name}: expected an integer of at least ${min}, got "${text}"`);
  return value;
}
/** Other mixes of the same kinds: another seed draws other points, stations, names and ids; a larger size repeats each request less often. */
const seed = integerOption("seed", DEFAULT_SEED, 0);
const mixSize = integerOption("mix-size", DEFAULT_MIX_SIZE, 1);
const replay = process.argv.includes("--replay");

const KEY = "bench-key-0123456789abcdef";
const ENCODINGS = { identity: "identity", browser: "gzip, deflate, br" } as const;
/** Answers captured per mix and coding for --replay: the first requests of the mix, replayed in turn. */
const REPLAY_ANSWERS = 512;
type EncodingName = keyof typeof ENCODINGS;

/** The baseline: a fixed 70-byte JSON body with the headers any JSON API sends. */
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(JSON.stringify({ status: "OK", code: 200, content: { lat: 48.86, lon: 2.35 } }).padEnd(70));
const server = http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.byteLength });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

const startBare = (): Promise<{ child: ChildProcess; port: number }> => startScriptServer("bare server", BARE_SERVER);

interface Started {
  child: ChildProcess;
  port: number;
  readyMs: number;
}

/**
 * How many workers accepted connections, from the primary's log (server/worker-pool.ts, the
 * default `pack` policy): each change with its time (performance.now()).
 */
const acceptingLog: { at: number; accepting: number }[] = [];
function acceptingAt(at: number): number | undefined {
  let n: number | undefined;
  for (const e of acceptingLog) if (e.at <= at) n = e.accepting;
  return n;
}
/** "1", or "1→2 (3 changes)" when the number changed during the run; "-" for a server without the log. */
function acceptingDuring(from: number, to: number): string {
  const start = acceptingAt(from);
  if (start === undefined) return "-";
  const changes = acceptingLog.filter((e) => e.at > from && e.at <= to).length;
  const end = acceptingAt(to)!;
  return changes === 0 ? String(start) : `${start}→${end} (${changes} change${changes === 1 ? "" : "s"})`;
}
/** The real server's process (npm's); its runs get the accepting column. */
let serverPid = -1;
const POOL_EVENTS = new Set(["worker accepts connections", "worker stops accepting connections", "all workers ready"]);

/** `npm start` on the test data, in its own process group; ready when /health answers. */
async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const t0 = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_API_KEYS: KEY };
  if (workersEnv) env.GEODATA_WORKERS = workersEnv;
  if (responseCacheMb) env.GEODATA_RESPONSE_CACHE_MB = responseCacheMb;
  const child = spawn("npm", ["start", "--silent", "--", "--no-default-build"], { cwd: PROJECT_ROOT, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let partial = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; accepting?: number };
        if (entry.msg !== undefined && POOL_EVENTS.has(entry.msg) && typeof entry.accepting === "number") acceptingLog.push({ at: performance.now(), accepting: entry.accepting });
      } catch {
        // not a log line
      }
    }
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  await waitForHealth(port, 50, () => (exited ? `npm start exited before answering /health:\n${stderr}` : undefined));
  return { child, port, readyMs: performance.now() - t0 };
}

async function stop(child: ChildProcess, group: boolean): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  if (group) process.kill(-child.pid!, "SIGTERM");
  else child.kill("SIGTERM");
  await exited;
}

interface Row {
  target: string;
  encoding: EncodingName;
  reqPerSec: number;
  ratio?: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  bytesPerResponse: number;
  /** CPU time (user + system) of the server's processes during the run, per request answered. */
  serverCpuUsPerRequest: number;
  /**
   * CPU time of this process (autocannon, the load generator) per request: on a machine it
   * shares with the server, what it spends is taken from the server (docs/http.md "Speed").
   */
  clientCpuUsPerRequest: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Workers of the server accepting connections during the run (server/worker-pool.ts); "-" for the bare and replay servers. */
  acceptingWorkers: string;
}

async function drive(target: string, port: number, paths: readonly string[], encoding: EncodingName, seconds: number, pid: number): Promise<Row> {
  // autocannon's request list, built into bytes once per connection before the run starts (a
  // setupRequest callback would rebuild each request: it measured 19 µs of load generator CPU per
  // request against 12, and took the bare baseline from about 80,000 to 52,000 req/s). Each
  // connection goes through the list in turn; the baseline's list is its one request.
  const tracker = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    headers: { "X-Api-Key": KEY, "Accept-Encoding": ENCODINGS[encoding] },
    requests: paths.map((p) => ({ method: "GET", path: p })),
  });
  // CPU counted from the start of the requests, after the lists are built.
  let cpu0 = treeCpuMs(pid);
  let client0 = process.cpuUsage();
  let started = performance.now();
  tracker.once("start", () => {
    cpu0 = treeCpuMs(pid);
    client0 = process.cpuUsage();
    started = performance.now();
  });
  const result = await tracker;
  const accepting = acceptingDuring(started, performance.now());
  const cpuMs = treeCpuMs(pid) - cpu0;
  const client = process.cpuUsage(client0);
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = s.count;
  return {
    target,
    encoding,
    reqPerSec: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: Number(result.latency.mean.toFixed(2)) },
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
    serverCpuUsPerRequest: result.requests.total > 0 ? Math.round((cpuMs * 1000) / result.requests.total) : 0,
    clientCpuUsPerRequest: result.requests.total > 0 ? Math.round((client.user + client.system) / result.requests.total) : 0,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    acceptingWorkers: pid === serverPid ? accepting : "-",
  };
}

async function probe(port: number, p: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { "X-Api-Key": KEY } });
  await res.arrayBuffer();
  return res.status;
}

const sum = (xs: ProcMemory[], f: (m: ProcMemory) => number): number => Number(xs.reduce((a, m) => a + f(m), 0).toFixed(1));
/** Processes of the server tree, without npm's own process. */
const serverProcesses = (pid: number): ProcMemory[] => processTree(pid).filter((m) => !/(^|\/)npm(-cli\.js)?( |$)/.test(m.command) && !m.command.startsWith("npm "));

// ---- setup (untimed) -------------------------------------------------------------------
// The test data as it is when every dataset is there (others may be changing pipeline code, which
// would make a fingerprint check rebuild); built (test/helpers/default-data.ts) only when missing.
const STEPS = ["places", "admin", "elevation", "stations", "forecast"];
const dataDir = STEPS.every((s) => existsSync(path.join(TEST_DATA_DIR, ".default-build", `${s}.json`))) ? TEST_DATA_DIR : await ensureDefaultData(STEPS);
const places = await readPlaces();
const stations = await reportingStations(dataDir);
const mixes: Mix[] = buildMixes(places, stations, seed, mixSize).filter((m) => only.length === 0 || only.includes(m.name));
process.stdout.write(`mixes: ${places.length} places, ${stations.METAR.length} METAR and ${stations.SYNOP.length} SYNOP stations with observations; ${duration} s per run, ${connections} connections\n`);

const bare = await startBare();
const server = await startServer(dataDir);
serverPid = server.child.pid!;
const memoryAtReady = serverProcesses(server.child.pid!);
process.stdout.write(`server ready in ${server.readyMs.toFixed(0)} ms (npm start to first /health answer); RSS ${sum(memoryAtReady, (m) => m.rssMiB)} MiB, PSS ${sum(memoryAtReady, (m) => m.pssMiB)} MiB over ${memoryAtReady.length} processes\n`);

const rows: Row[] = [];
const skipped: { target: string; status: number }[] = [];
const baselines: Row[] = [];
let memoryAfter: ProcMemory[] = [];
try {
  await drive("warm-up", bare.port, ["/"], "identity", 1, bare.child.pid!);
  for (const enc of Object.keys(ENCODINGS) as EncodingName[]) baselines.push(await drive("bare node:http", bare.port, ["/"], enc, duration, bare.child.pid!));
  for (const mix of mixes) {
    const status = await probe(server.port, mix.paths[0]!);
    if (status !== 200) {
      skipped.push({ target: mix.name, status });
      process.stdout.write(`${mix.name}: skipped (first request answered ${status})\n`);
      continue;
    }
    await drive(mix.name, server.port, mix.paths, "identity", 2, server.child.pid!);
    for (const enc of Object.keys(ENCODINGS) as EncodingName[]) {
      const row = await drive(mix.name, server.port, mix.paths, enc, duration, server.child.pid!);
      rows.push(row);
      process.stdout.write(`${mix.name} (${enc}): ${row.reqPerSec} req/s, p99 ${row.latencyMs.p99} ms, ${row.bytesPerResponse} B/response, server CPU ${row.serverCpuUsPerRequest} µs/request, client CPU ${row.clientCpuUsPerRequest} µs/request, accepting workers ${row.acceptingWorkers}, statuses ${JSON.stringify(row.statuses)}\n`);
    }
    if (replay) {
      for (const enc of Object.keys(ENCODINGS) as EncodingName[]) {
        const answers = await captureAnswers(server.port, mix.paths.slice(0, REPLAY_ANSWERS), { "X-Api-Key": KEY, "Accept-Encoding": ENCODINGS[enc] });
        const replayServer = await startReplay(answers);
        try {
          const row = await drive(`${mix.name} (replayed)`, replayServer.port, mix.paths, enc, duration, replayServer.child.pid!);
          rows.push(row);
          process.stdout.write(`${row.target} (${enc}): ${row.reqPerSec} req/s, p99 ${row.latencyMs.p99} ms, ${row.bytesPerResponse} B/response, server CPU ${row.serverCpuUsPerRequest} µs/request, client CPU ${row.clientCpuUsPerRequest} µs/request\n`);
        } finally {
          await replayServer.stop();
        }
      }
    }
  }
  for (const enc of Object.keys(ENCODINGS) as EncodingName[]) baselines.push(await drive("bare node:http", bare.port, ["/"], enc, duration, bare.child.pid!));
} finally {
  memoryAfter = serverProcesses(server.child.pid!);
  await stop(server.child, true);
  await stop(bare.child, false);
}

const baseRate = baselines.reduce((a, r) => a + r.reqPerSec, 0) / baselines.length;
for (const r of [...baselines, ...rows]) r.ratio = Number((r.reqPerSec / baseRate).toFixed(2));

const report = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "?", memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)), platform: `${os.platform()} ${os.release()}`, loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))) },
  node: process.version,
  settings: { durationSeconds: duration, connections, workers: workersEnv || "(default)", responseCacheMb: responseCacheMb || "(default)", seed, mixSize, encodings: ENCODINGS, baselineBody: "fixed 70-byte JSON", replay: replay ? `a bare node:http server answering the server's captured answers to the first ${REPLAY_ANSWERS} requests of each mix, in turn` : false },
  server: { readyMs: Math.round(server.readyMs), memoryAtReady, memoryAfter },
  baselineReqPerSec: Math.round(baseRate),
  baselines,
  rows,
  skipped,
};

const md: string[] = [
  `# HTTP bench ${report.when}`,
  "",
  `Machine: ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGiB} GiB, ${report.machine.platform}; Node ${report.node}; load average at the end ${report.machine.loadAverage.join(" ")}.`,
  `autocannon, ${connections} connections, ${duration} s per run; GEODATA_WORKERS ${report.settings.workers}, GEODATA_RESPONSE_CACHE_MB ${report.settings.responseCacheMb}; mixes of ${mixSize} requests, seed ${seed}. Baseline (bare node:http, fixed 70-byte JSON, runs first and last): ${report.baselineReqPerSec} req/s (${baselines.map((b) => b.reqPerSec).join(", ")}).`,
  ...(replay ? [`Rows "(replayed)": a bare node:http server (one process) answering the server's own answers to the first ${REPLAY_ANSWERS} requests of the mix in that coding, captured before, in turn: the same bytes with no application work, the most any node:http server sending them reaches here.`] : []),
  `Server (npm start): ready in ${report.server.readyMs} ms; at ready RSS ${sum(memoryAtReady, (m) => m.rssMiB)} MiB / PSS ${sum(memoryAtReady, (m) => m.pssMiB)} MiB, after the runs RSS ${sum(memoryAfter, (m) => m.rssMiB)} MiB / PSS ${sum(memoryAfter, (m) => m.pssMiB)} MiB.`,
  "",
  "| process | RSS MiB at ready | PSS MiB at ready | RSS MiB after | PSS MiB after |",
  "|---|---|---|---|---|",
  ...memoryAtReady.map((m) => {
    const after = memoryAfter.find((a) => a.pid === m.pid);
    return `| ${m.pid} ${m.command} | ${m.rssMiB.toFixed(0)} | ${m.pssMiB.toFixed(0)} | ${after?.rssMiB.toFixed(0) ?? "-"} | ${after?.pssMiB.toFixed(0) ?? "-"} |`;
  }),
  "",
  "| target | encoding | req/s | × baseline | p50 ms | p90 ms | p99 ms | max ms | bytes/response | server CPU µs/request | client CPU µs/request | accepting workers | statuses |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...[...baselines, ...rows].map((r) => `| ${r.target} | ${r.encoding} | ${r.reqPerSec} | ${r.ratio} | ${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ${r.latencyMs.max} | ${r.bytesPerResponse} | ${r.serverCpuUsPerRequest} | ${r.clientCpuUsPerRequest} | ${r.acceptingWorkers} | ${Object.entries(r.statuses).map(([k, v]) => `${k}: ${v}`).join(", ")}${r.errors ? `, errors: ${r.errors}` : ""} |`),
  ...(skipped.length ? ["", `Skipped (first request not 200): ${skipped.map((s) => `${s.target} (${s.status})`).join(", ")}.`] : []),
  "",
];
const outDir = path.join(PROJECT_ROOT, "bench-results");
await fs.mkdir(outDir, { recursive: true });
const stamp = report.when.replace(/[:.]/g, "-");
await fs.writeFile(path.join(outDir, `http-${stamp}.json`), JSON.stringify(report, null, 2) + "\n");
await fs.writeFile(path.join(outDir, `http-${stamp}.md`), md.join("\n"));
process.stdout.write("\n" + md.join("\n") + `\nwritten: bench-results/http-${stamp}.{json,md}\n`);
