/**
 * HTTP layer overhead: requests per second through a real socket for the cheapest answers the
 * server gives (a 400 from parameter validation, a 401, /health), measured against a bare
 * node:http server answering a fixed body in the same run (the baseline).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { promises as fs } from "node:fs";
import path from "node:path";
import { Bench } from "tinybench";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { startService } from "../server/service.ts";

const KEY = "bench-key-0123456789abcdef";
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-bench-http-"));
const service = await startService({
  config: readConfig({ PORT: "0", HOST: "127.0.0.1", GEODATA_API_KEYS: KEY, GEODATA_DATA_DIR: dataDir }),
  logger: silentLogger,
  accessLogger: silentLogger,
});
const body = Buffer.from('{"status":"error","code":400,"message":"x"}');
const bare = http.createServer((_req, res) => {
  res.writeHead(400, { "Content-Type": "application/json", "Content-Length": body.byteLength });
  res.end(body);
});
await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
const barePort = (bare.address() as AddressInfo).port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(port: number, p: string, key?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: p, agent, headers: key ? { "X-Api-Key": key } : {} }, (res) => {
      res.resume();
      res.on("end", () => resolve());
    });
    req.on("error", reject);
  });
}

const bench = new Bench({ time: 2000, warmup: true });
bench
  .add("baseline: bare node:http, fixed body", () => get(barePort, "/x"))
  .add("400 invalid lat", () => get(service.running.port, "/elevation/point/2/json?lat=abc&lon=1", KEY))
  .add("401 no key", () => get(service.running.port, "/elevation/point/2/json?lat=1&lon=1"))
  .add("503 dataset missing", () => get(service.running.port, "/elevation/point/2/json?lat=1&lon=1", KEY))
  .add("/health", () => get(service.running.port, "/health"));
await bench.run();

const baseline = bench.tasks[0]!.result!;
const baseMean = (baseline as unknown as { latency: { mean: number } }).latency.mean;
const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p99: number }; throughput: { mean: number } };
  return {
    task: t.name,
    "req/s": Math.round(r.throughput.mean),
    "mean µs": Math.round(r.latency.mean * 1000),
    "p99 µs": Math.round(r.latency.p99 * 1000),
    "× baseline time": (r.latency.mean / baseMean).toFixed(2),
  };
});
console.table(rows);
console.log(`heap used: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MiB`);
agent.destroy();
bare.close();
await service.stop();
await fs.rm(dataDir, { recursive: true, force: true });
