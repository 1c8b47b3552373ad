/**
 * Issue 29 end to end, with the real parts started and stopped here: a builder's data directory
 * holding the embedded default as releases, published by Debian's nginx with
 * deploy/nginx/nginx.conf + builder.conf; three API nodes (the real start, server/start.ts, one
 * process each: GEODATA_WORKERS=1, GEODATA_SERVE_ONLY=1), each with its own data directory filled
 * by the real `sync` from nginx and kept in step by `sync --interval 1`; Debian's HAProxy with
 * deploy/haproxy/haproxy.cfg in front (only addresses, ports and the root directory are put in,
 * as deploy-files.test.ts does). A paced load over every endpoint, with an API key, goes through
 * HAProxy during each case and every request that does not get a 200 counts as failed:
 *   - a node joins: its first sync, killed (SIGKILL) in the middle of a file, resumes it by Range
 *     from nginx; without one dataset the node answers 503 on /health/ready and HAProxy sends it
 *     nothing; once its sync brings the dataset, it is ready and HAProxy sends it requests;
 *   - a new release published at the builder is served by every node within the sync interval
 *     plus the poll;
 *   - kill -9 of a node: HAProxy retries on the others, takes it out, takes it back once restarted;
 *   - a rolling SIGTERM restart of every node: each drains (ready 503 while a normal request to it
 *     gets 200), HAProxy takes it out before it stops listening;
 *   - a tampered file in a new release: sync refuses it (exit 1, a JSON line naming the dataset),
 *     every node keeps serving the release it had.
 * No request may fail in any case. The rate achieved, the failed and retried requests of each case
 * are printed at the end (measured on 2 cores: docs/deploy.md). About 4 minutes, most of it the
 * nodes' starts (loading every dataset) in the rolling restart; three nodes, as haproxy.cfg ships.
 * Skipped, and saying so, without haproxy or nginx.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASET_NAMES } from "../../datasets/catalog.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { MANIFEST_FILE, releaseDirOf, releasesRoot, SYNCING_PREFIX } from "../../datasets/releases/layout.ts";
import type { SyncSummary } from "../../pipeline/sync/summary.ts";
import { defaultDatasetDir } from "../helpers/default-data.ts";
import { EVERY_ENDPOINT, startLoad, type Load, type LoadResult } from "../helpers/load.ts";
import { linkRelease, linkTree, pointAt, writeManifest } from "../helpers/releases.ts";
import { systemTool } from "../helpers/system-tools.ts";
import { until } from "../helpers/until.ts";

const haproxyBin = systemTool("haproxy");
const nginxBin = systemTool("nginx");
const missingTools = [haproxyBin ? "" : "haproxy", nginxBin ? "" : "nginx-light"].filter(Boolean);

const KEY = "replicas-key-0123456789abcdef";
/** Requests per second through HAProxy during every case. */
const RATE = 500;
const POLL_MS = 200;
const SYNC_INTERVAL_S = 1;
const DRAIN_MS = 3000;
const R1 = "20261101T000000Z";
const R2 = "20261102T000000Z";
const R3 = "20261103T000000Z";
/** A request to a node directly, with the key: answered from the places dataset. */
const NORMAL = "/geocode/id/2/json?id=gn:2950159";

type SyncLine = SyncSummary & { msg: string };

interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  /** The last output lines (both streams), for failure messages. */
  tail: string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

interface ApiNode {
  readonly name: "api1" | "api2" | "api3";
  readonly port: number;
  readonly dir: string;
  server?: Proc;
  /** The server's log lines (JSON, stderr) of its current run. */
  log: string[];
  loop?: Proc;
  /** Every summary line its repeating sync printed. */
  loopLines: SyncLine[];
}

/** One HAProxy access line (option httplog): the server that answered, the status, retries. */
interface Routed {
  server: string;
  status: number;
  retries: number;
  redispatched: boolean;
  path: string;
}

const started = new Set<Proc>();
const tempDirs: string[] = [];
let builder = "";
let builderUrl = "";
let lbUrl = "";
let nodes: ApiNode[] = [];
let load: Load | undefined;
const routed: Routed[] = [];
/** HAProxy's other lines (server state changes, warnings). */
const haproxyEvents: string[] = [];
/** Per case: requests sent, seconds, the rate achieved, requests without a 200, requests HAProxy retried on another node. */
const measured: Array<{ case: string; sent: number; seconds: number; ratePerS: number; failed: number; retriedByHaproxy: number; servedAfterMs?: number[]; timings?: Array<{ syncedAfterMs: number; loadStartedAfterMs: number; loadMs: number }> }> = [];

const running = (p: Proc | undefined): boolean => p !== undefined && p.child.exitCode === null && p.child.signalCode === null;

function launch(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, o: { stdout: "pipe" | "ignore"; onLine?: (line: string) => void }): Proc {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ["ignore", o.stdout, "pipe"] });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const p: Proc = { name, child, tail: "", exit };
  child.on("error", (err) => (p.tail += `${err.message}\n`));
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    let partial = "";
    stream.on("data", (d: Buffer) => {
      const lines = (partial + d.toString("utf8")).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        p.tail = (p.tail + line + "\n").slice(-4000);
        o.onLine?.(line);
      }
    });
  }
  started.add(p);
  return p;
}

async function stop(p: Proc | undefined, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  if (!p) return;
  if (running(p)) p.child.kill(signal);
  await p.exit;
}

/** `n` distinct free ports of 127.0.0.1 (all held open until each is known). */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<net.Server>((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => resolve(s));
  })));
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** One GET on a connection of its own (no pool kept across a node's restarts). */
function get(port: number, target: string, key?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: target, agent: false, headers: key ? { "X-Api-Key": key } : {}, timeout: 10_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`timeout: GET ${target} on port ${port}`)));
    req.on("error", reject);
  });
}

async function datasetsOf(node: ApiNode): Promise<Record<string, { status: string; release?: string; refused?: { release: string } }>> {
  const body = JSON.parse((await get(node.port, "/health")).body) as { content: { datasets: Array<{ name: string; status: string; release?: string }> } };
  return Object.fromEntries(body.content.datasets.map((d) => [d.name, d]));
}

const readyStatus = (node: ApiNode): Promise<number> => get(node.port, "/health/ready").then((r) => r.status, () => 0);

/** `npm run pipeline -- sync` from the builder's nginx into the node's data directory (node itself runs it: a kill reaches it). */
function startSync(node: ApiNode, args: string[], onLine?: (line: string) => void): Proc {
  const env: NodeJS.ProcessEnv = { ...process.env, GEODATA_LOG_LEVEL: "warn" };
  delete env.GEODATA_DATA_DIR;
  return launch(`sync ${node.name}`, process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "pipeline", "cli.ts"), "sync", "--from", builderUrl, "--data-dir", node.dir, ...args], env, { stdout: "pipe", ...(onLine ? { onLine } : {}) });
}

async function syncOnce(node: ApiNode, args: string[] = []): Promise<{ code: number | null; lines: SyncLine[]; tail: string }> {
  const lines: SyncLine[] = [];
  const p = startSync(node, args, (l) => {
    if (l.startsWith("{") && l.includes('"msg":"sync dataset"')) lines.push(JSON.parse(l) as SyncLine);
  });
  const { code } = await p.exit;
  return { code, lines, tail: p.tail };
}

function startLoop(node: ApiNode): void {
  node.loop = startSync(node, ["--interval", String(SYNC_INTERVAL_S)], (l) => {
    if (l.startsWith("{") && l.includes('"msg":"sync dataset"')) node.loopLines.push(JSON.parse(l) as SyncLine);
  });
}

/** The real start of a node (server/start.ts, as `npm start` runs it), on its port; resolves once it listens. */
async function startServer(node: ApiNode): Promise<void> {
  node.log.push(`--- start ${new Date().toISOString()}`);
  const from = node.log.length;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(node.port),
    HOST: "127.0.0.1",
    GEODATA_DATA_DIR: node.dir,
    GEODATA_API_KEYS: KEY,
    GEODATA_WORKERS: "1",
    GEODATA_SERVE_ONLY: "1",
    GEODATA_RELEASE_POLL_MS: String(POLL_MS),
    GEODATA_SHUTDOWN_DELAY_MS: String(DRAIN_MS),
    GEODATA_TRUSTED_PROXIES: "127.0.0.1",
    GEODATA_LOG_LEVEL: "info",
  };
  delete env.GEODATA_API_KEYS_FILE;
  const p = launch(node.name, process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "start.ts")], env, { stdout: "ignore", onLine: (l) => node.log.push(l) });
  node.server = p;
  await until(`${node.name} listening`, () => {
    if (!running(p)) throw new Error(`${node.name} exited before listening:\n${p.tail}`);
    return node.log.slice(from).some((l) => l.includes('"msg":"listening"'));
  }, 120_000, 50);
}

async function waitReady(node: ApiNode): Promise<void> {
  await until(`${node.name} ready (/health/ready 200)`, async () => (await readyStatus(node)) === 200, 120_000, 50);
}

/** HAProxy's log line saying the server went UP or DOWN, after the `from`-th event. */
const stateChanged = (name: string, state: "UP" | "DOWN", from: number): boolean => haproxyEvents.slice(from).some((l) => l.includes(`nodes/${name} is ${state}`));

async function waitRouted(name: string, timeoutMs = 30_000): Promise<void> {
  const mark = routed.length;
  await until(`HAProxy to send requests to ${name}`, () => routed.slice(mark).some((r) => r.server === name), timeoutMs, 50);
}

/** Starts a stopped node again and waits until it is ready, HAProxy has it UP and routes to it. */
async function rejoin(node: ApiNode): Promise<void> {
  const back = haproxyEvents.length;
  await startServer(node);
  await waitReady(node);
  await until(`HAProxy to mark ${node.name} UP`, () => stateChanged(node.name, "UP", back), 30_000, 20);
  await waitRouted(node.name);
}

// `... api nodes/api1 0/0/0/1/1 200 512 - - ---- 3/3/1/0/+1 0/0 "GET /health HTTP/1.1"`
const HTTPLOG = / (\S+)\/(\S+) -?\d+\/-?\d+\/-?\d+\/-?\d+\/\+?-?\d+ (\d{3}) .* \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) \d+\/\d+ "[A-Z]+ (\S+)/;

function onHaproxyLine(line: string): void {
  const m = HTTPLOG.exec(line);
  if (m && m[1] === "nodes") routed.push({ server: m[2]!, status: Number(m[3]), redispatched: m[4] === "+", retries: Number(m[5]), path: m[6]! });
  else if (line.trim() !== "") haproxyEvents.push(line);
}

/** Runs `during` with the paced load going through HAProxy (half a second of it before and after); every outcome counted. */
async function underLoad(label: string, during: (load: Load) => Promise<void>): Promise<LoadResult> {
  const t0 = performance.now();
  const mark = routed.length;
  // HAProxy closes a client's idle connection after 4 s (timeout http-keep-alive) without a
  // Keep-Alive hint: the load closes its own after 2 s, as a client of this balancer should, so
  // that no request is sent on a connection HAProxy is closing.
  load = startLoad({ baseUrl: lbUrl, paths: EVERY_ENDPOINT, headers: { "X-Api-Key": KEY }, ratePerS: RATE, idleTimeoutMs: 2000 });
  let result: LoadResult;
  try {
    await load.answered(RATE / 2);
    await during(load);
    await load.answered(RATE / 2);
  } finally {
    result = await load.stop();
    load = undefined;
  }
  const seconds = (performance.now() - t0) / 1000;
  const retriedByHaproxy = routed.slice(mark).filter((r) => r.retries > 0 || r.redispatched).length;
  measured.push({ case: label, sent: result.sent, seconds: Math.round(seconds * 10) / 10, ratePerS: Math.round(result.sent / seconds), failed: result.sent - (result.byStatus[200] ?? 0), retriedByHaproxy });
  return result;
}

/**
 * Every request answered, every answer a 200, on every endpoint. The rate achieved is printed,
 * not asserted: the load is a condition of the test (paced at RATE; on a machine busy with other
 * work it falls short), not its measure.
 */
function expectNoFailure(result: LoadResult): void {
  expect(result.failures).toEqual([]);
  expect(result.byStatus).toEqual({ 200: result.sent });
  for (const p of EVERY_ENDPOINT) expect(Object.keys(result.byPath[p.split("?")[0]!] ?? {}), p).toEqual(["200"]);
}

const sha256 = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");

describe.skipIf(missingTools.length > 0)(`replicas behind HAProxy, synced from nginx${missingTools.length ? ` (skipped: Debian's ${missingTools.join(" and ")} not installed)` : ""}`, () => {
  beforeAll(async () => {
    const tmp = async (prefix: string): Promise<string> => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
      tempDirs.push(dir);
      return dir;
    };
    // The builder: every dataset of the embedded default as release R1.
    builder = await tmp("geodata-replicas-builder-");
    // nginx's workers run as another user when the test runs as root.
    await fs.chmod(builder, 0o755);
    for (const dataset of DATASET_NAMES) {
      await linkRelease(builder, dataset, R1, await defaultDatasetDir(dataset));
      await pointAt(builder, dataset, R1);
    }
    const [nginxPort, lbPort, ...apiPorts] = (await freePorts(5)) as [number, number, number, number, number];

    // nginx as shipped: nginx.conf around builder.conf, with this run's port and root.
    const prefix = await tmp("geodata-replicas-nginx-");
    await fs.mkdir(path.join(prefix, "tmp"));
    const site = await fs.readFile(path.join(PROJECT_ROOT, "deploy", "nginx", "builder.conf"), "utf8");
    expect(site).toContain("listen 8090;");
    expect(site).toContain("root /var/lib/geodata;");
    await fs.writeFile(path.join(prefix, "site.conf"), site.replace("listen 8090;", `listen 127.0.0.1:${nginxPort};`).replace("root /var/lib/geodata;", `root ${builder};`));
    await fs.copyFile(path.join(PROJECT_ROOT, "deploy", "nginx", "nginx.conf"), path.join(prefix, "nginx.conf"));
    // In the foreground, so that the test holds its process.
    const nginx = launch("nginx", nginxBin!, ["-p", `${prefix}/`, "-c", path.join(prefix, "nginx.conf"), "-g", "daemon off;"], process.env, { stdout: "pipe" });
    builderUrl = `http://127.0.0.1:${nginxPort}/`;
    await until("nginx serving the builder's pointers", async () => {
      if (!running(nginx)) throw new Error(`nginx exited:\n${nginx.tail}`);
      return (await get(nginxPort, "/releases/places/current.txt").catch(() => undefined))?.body === `${R1}\n`;
    });
    // Only the releases are published.
    expect((await get(nginxPort, "/").catch(() => undefined))?.status).toBe(404);

    nodes = await Promise.all((["api1", "api2", "api3"] as const).map(async (name, i) => ({ name, port: apiPorts[i]!, dir: await tmp(`geodata-replicas-${name}-`), log: [], loopLines: [] })));

    // HAProxy as shipped, its addresses from the environment. api3 has no process yet.
    const haproxy = launch("haproxy", haproxyBin!, ["-f", path.join(PROJECT_ROOT, "deploy", "haproxy", "haproxy.cfg")], {
      ...process.env,
      GEODATA_LISTEN: `127.0.0.1:${lbPort}`,
      GEODATA_API1: `127.0.0.1:${nodes[0]!.port}`,
      GEODATA_API2: `127.0.0.1:${nodes[1]!.port}`,
      GEODATA_API3: `127.0.0.1:${nodes[2]!.port}`,
      // Far above the load: the balancer's limit is not what this test checks.
      GEODATA_BALANCER_RATE: "100000000",
    }, { stdout: "pipe", onLine: onHaproxyLine });
    lbUrl = `http://127.0.0.1:${lbPort}`;

    // api1 and api2: synced once, then served, then kept in step.
    for (const first of await Promise.all(nodes.slice(0, 2).map((n) => syncOnce(n)))) {
      expect(first.code, first.tail).toBe(0);
      expect(first.lines.map((l) => [l.dataset, l.status, l.release])).toEqual(DATASET_NAMES.map((d) => [d, "synced", R1]));
    }
    await Promise.all(nodes.slice(0, 2).map(startServer));
    await Promise.all(nodes.slice(0, 2).map(waitReady));
    for (const node of nodes.slice(0, 2)) startLoop(node);
    await until("HAProxy answering through api1 and api2", async () => {
      if (!running(haproxy)) throw new Error(`haproxy exited:\n${haproxy.tail}`);
      return (await get(lbPort, NORMAL, KEY).catch(() => undefined))?.status === 200;
    }, 30_000, 100);
    // The node without a process is out (its checks fail), the others in.
    await until("HAProxy to mark api3 DOWN", () => stateChanged("api3", "DOWN", 0), 30_000, 50);
    const mark = routed.length;
    await until("HAProxy to send requests to api1 and api2", async () => {
      expect((await get(lbPort, NORMAL, KEY)).status).toBe(200);
      const servers = new Set(routed.slice(mark).map((r) => r.server));
      return servers.has("api1") && servers.has("api2");
    }, 30_000, 50);
  }, 600_000);

  afterAll(async () => {
    await load?.stop();
    // nginx's master and HAProxy stop (with nginx's workers) on SIGTERM; the nodes and syncs are single processes.
    for (const p of started) await stop(p, p.name === "nginx" || p.name === "haproxy" ? "SIGTERM" : "SIGKILL");
    for (const dir of tempDirs) await fs.rm(dir, { recursive: true, force: true });
    // REPLICAS_TEST_TRACE_DIR: HAProxy's lines and each node's log and sync lines written there, to look into a failure.
    const trace = process.env.REPLICAS_TEST_TRACE_DIR;
    if (trace) {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(path.join(trace, "haproxy-events.txt"), haproxyEvents.join("\n"));
      writeFileSync(path.join(trace, "haproxy-routed.txt"), routed.map((r) => JSON.stringify(r)).join("\n"));
      for (const n of nodes) writeFileSync(path.join(trace, `${n.name}.txt`), [...n.log, ...n.loopLines.map((l) => JSON.stringify(l))].join("\n"));
    }
    if (measured.length > 0) console.log(`replicas.test.ts measured (target ${RATE} requests/s):\n${measured.map((m) => JSON.stringify(m)).join("\n")}`);
  });

  it("a node joins: its first sync, killed in the middle of a file, resumes it by Range from nginx; missing a dataset it is not ready and gets no request; synced, it is ready and serves", async () => {
    const node = nodes[2]!;
    const withoutStations = ["--datasets", DATASET_NAMES.filter((d) => d !== "stations").join(",")];
    const adminFile = (await fs.readdir(path.join(releaseDirOf(builder, "admin", R1), "admin")))[0]!;
    const adminSize = (await fs.stat(path.join(releaseDirOf(builder, "admin", R1), "admin", adminFile))).size;
    const part = path.join(releasesRoot(node.dir, "admin"), `${SYNCING_PREFIX}${R1}`, "admin", `${adminFile}.part`);
    let held = 0;
    let resumedRun: Awaited<ReturnType<typeof syncOnce>> | undefined;
    let notReady: { status: number; body: string } | undefined;
    let routedWhileNotReady: Routed[] = [];
    const result = await underLoad("a node joins", async (l) => {
      const first = startSync(node, withoutStations);
      await until(`the first sync of ${node.name} part-way through ${adminFile}`, async () => {
        if (!running(first)) throw new Error(`the sync ended before it was killed:\n${first.tail}`);
        return ((await fs.stat(part).catch(() => undefined))?.size ?? 0) > 4 << 20;
      }, 60_000, 5);
      first.child.kill("SIGKILL");
      await first.exit;
      held = (await fs.stat(part)).size;
      resumedRun = await syncOnce(node, withoutStations);

      await startServer(node);
      notReady = await get(node.port, "/health/ready");
      // Three seconds of load: a balancer that took the node in on anything but readiness would have (rise 2, inter 1 s).
      const mark = routed.length;
      await l.answered(3 * RATE);
      routedWhileNotReady = routed.slice(mark).filter((r) => r.server === node.name);
      expect(await readyStatus(node)).toBe(503);

      startLoop(node);
      await waitReady(node);
      await waitRouted(node.name);
    });
    expectNoFailure(result);
    // The killed run left part of the file; the next run fetched only the rest.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(adminSize);
    expect(resumedRun!.code, resumedRun!.tail).toBe(0);
    const admin = resumedRun!.lines.find((s) => s.dataset === "admin");
    expect(admin).toMatchObject({ status: "synced", release: R1, downloaded: 1, resumed: 1, bytes: adminSize, bytesFetched: adminSize - held });
    expect(resumedRun!.lines.map((s) => s.dataset).sort()).toEqual(DATASET_NAMES.filter((d) => d !== "stations").sort());
    // Without stations: 503 naming it, and no request from HAProxy.
    expect(notReady!.status).toBe(503);
    expect(JSON.parse(notReady!.body).message).toContain("'stations'");
    expect(routedWhileNotReady).toEqual([]);
    // Its repeating sync brought stations.
    expect(node.loopLines.find((s) => s.dataset === "stations")).toMatchObject({ status: "synced", release: R1 });
    for (const n of nodes) expect(await readyStatus(n), n.name).toBe(200);
  }, 180_000);

  it("a new release published at the builder is synced by every node within the sync interval, then served by each (its poll, its load)", async () => {
    // stations R2: R1's files under a new id (what a rebuild from the same inputs gives).
    await linkRelease(builder, "stations", R2, releaseDirOf(builder, "stations", R1));
    const files = (JSON.parse(await fs.readFile(path.join(releaseDirOf(builder, "stations", R2), MANIFEST_FILE), "utf8")) as { files: unknown[] }).files.length;
    let servedAfterMs: number[] = [];
    let publishedAt = 0;
    const result = await underLoad("new release", async () => {
      for (const n of nodes) expect((await datasetsOf(n)).stations?.release, n.name).toBe(R1);
      publishedAt = Date.now();
      await pointAt(builder, "stations", R2);
      servedAfterMs = await Promise.all(nodes.map(async (n) => {
        await until(`${n.name} serving stations ${R2}`, async () => (await datasetsOf(n)).stations?.release === R2, 60_000, 20);
        return Date.now() - publishedAt;
      }));
    });
    // When each node's sync pointed at the new release (its summary line), and when its server
    // began loading it (its log's "dataset reloaded" line, less the load's duration).
    const timings = nodes.map((n) => {
      const synced = n.loopLines.find((s) => s.dataset === "stations" && s.release === R2) as (SyncLine & { time: string }) | undefined;
      const reloaded = n.log.map((l) => (l.startsWith("{") ? (JSON.parse(l) as { msg: string; time: string; dataset?: string; release?: string; loadMs?: number }) : undefined)).find((l) => l?.msg === "dataset reloaded" && l.dataset === "stations" && l.release === R2);
      expect(synced, n.name).toBeDefined();
      expect(reloaded, n.name).toBeDefined();
      return { syncedAfterMs: Date.parse(synced!.time) - publishedAt, loadStartedAfterMs: Date.parse(reloaded!.time) - reloaded!.loadMs! - publishedAt, loadMs: reloaded!.loadMs! };
    });
    Object.assign(measured.at(-1)!, { servedAfterMs, timings });
    expectNoFailure(result);
    // A pass starts at most SYNC_INTERVAL_S after the switch and finds every file held (linked,
    // nothing downloaded): one second of slack for the pass itself on two shared cores. The
    // server's poll (POLL_MS) then starts the switch; how long the load of the release takes is
    // printed, not bounded (seconds here, with every process of this test on two cores).
    for (const t of timings) expect(t.syncedAfterMs).toBeLessThan(SYNC_INTERVAL_S * 1000 + 1000);
    for (const n of nodes) {
      expect(n.loopLines.find((s) => s.dataset === "stations" && s.release === R2), n.name).toMatchObject({ status: "synced", previousRelease: R1, files, linked: files, downloaded: 0, bytesFetched: 0 });
      expect(await readyStatus(n), n.name).toBe(200);
    }
  }, 120_000);

  it("kill -9 of a node: HAProxy retries its requests on the others and takes it out; restarted, it is taken back", async () => {
    const node = nodes[1]!;
    let retried = 0;
    const result = await underLoad("kill -9", async (l) => {
      const ev = haproxyEvents.length;
      const mark = routed.length;
      node.server!.child.kill("SIGKILL");
      await node.server!.exit;
      await until(`HAProxy to mark ${node.name} DOWN`, () => stateChanged(node.name, "DOWN", ev), 10_000, 20);
      await l.answered(RATE / 2);
      retried = routed.slice(mark).filter((r) => r.retries > 0 || r.redispatched).length;
      await rejoin(node);
    });
    expectNoFailure(result);
    // Requests did reach the dead node (before its checks failed) and were answered by another.
    expect(retried).toBeGreaterThan(0);
  }, 120_000);

  it("a rolling SIGTERM restart of every node: each drains (ready 503, requests 200) and is out of HAProxy before it stops listening", async () => {
    const drains: Array<{ node: string; ready: number; normal: number; live: number; outBeforeClose: boolean; exitCode: number | null; drainedMs: number }> = [];
    const result = await underLoad("rolling restart", async () => {
      for (const node of nodes) {
        const ev = haproxyEvents.length;
        const server = node.server!;
        const sent = performance.now();
        server.child.kill("SIGTERM");
        const ready = await until(`${node.name} draining`, async () => {
          const s = await readyStatus(node);
          return s === 503 ? s : undefined;
        }, 5_000, 10);
        const normal = (await get(node.port, NORMAL, KEY)).status;
        const live = (await get(node.port, "/health/live")).status;
        await until(`HAProxy to mark ${node.name} DOWN`, () => stateChanged(node.name, "DOWN", ev), 10_000, 20);
        const outBeforeClose = running(server);
        const { code } = await server.exit;
        drains.push({ node: node.name, ready, normal, live, outBeforeClose, exitCode: code, drainedMs: performance.now() - sent });
        await rejoin(node);
      }
    });
    expectNoFailure(result);
    for (const d of drains) {
      expect(d).toMatchObject({ node: d.node, ready: 503, normal: 200, live: 200, outBeforeClose: true, exitCode: 0 });
      expect(d.drainedMs).toBeGreaterThanOrEqual(DRAIN_MS);
    }
  }, 180_000);

  it("a tampered file in a new release is refused by sync (exit 1, a line naming the dataset); every node keeps serving the release it had", async () => {
    // stations R3: R2's files and a new one (a file no node holds, so it is downloaded, not
    // linked), then altered at the builder after its release.json was written: same size, other bytes.
    await linkTree(path.join(releaseDirOf(builder, "stations", R2), "stations"), path.join(releaseDirOf(builder, "stations", R3), "stations"));
    const original = `stations release ${R3} of the replicas test\n`;
    const notes = path.join(releaseDirOf(builder, "stations", R3), "stations", "NOTES.txt");
    await fs.writeFile(notes, original);
    await writeManifest(builder, "stations", R3);
    const tampered = original.replace("stations", "Stations");
    expect(tampered.length).toBe(original.length);
    await fs.writeFile(notes, tampered);
    let once: Awaited<ReturnType<typeof syncOnce>> | undefined;
    const loopMarks = nodes.map((n) => n.loopLines.length);
    const result = await underLoad("tampered release", async () => {
      await pointAt(builder, "stations", R3);
      once = await syncOnce(nodes[0]!, ["--datasets", "stations"]);
      // Every node's repeating sync met it too.
      for (const [i, n] of nodes.entries()) {
        await until(`${n.name}'s sync to refuse stations ${R3}`, () => n.loopLines.slice(loopMarks[i]).some((s) => s.dataset === "stations" && s.status === "failed"), 20_000, 20);
      }
      // Their pointers never moved (below), so their servers have nothing to switch to.
      for (const n of nodes) {
        expect((await datasetsOf(n)).stations, n.name).toMatchObject({ status: "ready", release: R2 });
        expect(await readyStatus(n), n.name).toBe(200);
      }
    });
    expectNoFailure(result);
    expect(once!.code, once!.tail).toBe(1);
    expect(once!.lines).toHaveLength(1);
    expect(once!.lines[0]).toMatchObject({ msg: "sync dataset", dataset: "stations", status: "failed", release: R2 });
    expect(once!.lines[0]!.reason).toContain(`releases/stations/${R3}/stations/NOTES.txt`);
    expect(once!.lines[0]!.reason).toContain(`expected SHA-256 ${sha256(original)}, got ${sha256(tampered)}`);
    for (const [i, n] of nodes.entries()) {
      for (const s of n.loopLines.slice(loopMarks[i]).filter((s) => s.dataset === "stations" && s.status !== "unchanged")) expect(s).toMatchObject({ status: "failed", release: R2 });
      const names = await fs.readdir(releasesRoot(n.dir, "stations"));
      expect(names.filter((f) => f.startsWith(R3))).toEqual([]);
      expect((await fs.readFile(path.join(releasesRoot(n.dir, "stations"), "current.txt"), "utf8")).trim()).toBe(R2);
    }
  }, 120_000);
});
