/**
 * A paced load generator for tests that must hold a request rate while something else happens
 * (a dataset reload): requests are started on a fixed schedule (request i at start + i / rate)
 * over keep-alive connections, cycling through `paths`, and every outcome is counted: each
 * status, and each failed request (connection error, reset, timeout) with its message.
 */
import http from "node:http";

/** One request to each endpoint and to /health, on the embedded default's data (Berlin, KJFK, ...). */
export const EVERY_ENDPOINT: readonly string[] = [
  "/weather/point/2/json?lat=52.52&lon=13.405",
  "/geocode/reverse/2/json?lat=52.52&lon=13.405",
  "/weather/METAR/2/json?id=KJFK",
  "/weather/SYNOP/2/json?id=87585",
  "/geocode/search/2/json?q=Berlin&limit=5",
  "/elevation/point/2/json?lat=0.5&lon=10.5",
  "/geocode/id/2/json?id=gn:2950159",
  "/weather/id/2/json?id=gn:2950159",
  "/health",
];

export interface LoadResult {
  sent: number;
  completed: number;
  byStatus: Record<number, number>;
  /** Requests that got no HTTP answer, with the reason. */
  failures: string[];
  elapsedMs: number;
  /** Completed requests per second over the run. */
  rate: number;
  /** Status counts per path (route), to show every endpoint was exercised. */
  byPath: Record<string, Record<number, number>>;
}

export type LoadOptions = {
  baseUrl: string;
  paths: readonly string[];
  headers?: Record<string, string>;
  ratePerS: number;
  durationMs: number;
  /** Requests allowed in flight at once (default 64). */
  maxInFlight?: number;
  timeoutMs?: number;
};

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const url = new URL(o.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.maxInFlight ?? 64 });
  const result: LoadResult = { sent: 0, completed: 0, byStatus: {}, failures: [], elapsedMs: 0, rate: 0, byPath: {} };
  const started = performance.now();
  const total = Math.round((o.ratePerS * o.durationMs) / 1000);
  let inFlight = 0;
  const done: Promise<void>[] = [];
  const one = (p: string): Promise<void> =>
    new Promise((resolve) => {
      const req = http.get({ host: url.hostname, port: url.port, path: p, agent, headers: o.headers, timeout: o.timeoutMs ?? 10_000 }, (res) => {
        res.resume();
        res.on("end", () => {
          const s = res.statusCode ?? 0;
          result.byStatus[s] = (result.byStatus[s] ?? 0) + 1;
          const route = p.split("?")[0]!;
          const perPath = (result.byPath[route] ??= {});
          perPath[s] = (perPath[s] ?? 0) + 1;
          result.completed++;
          resolve();
        });
        res.on("error", (err) => {
          result.failures.push(`${p}: ${err.message}`);
          resolve();
        });
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (err) => {
        result.failures.push(`${p}: ${err.message}`);
        resolve();
      });
    });
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / o.ratePerS;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    while (inFlight >= (o.maxInFlight ?? 64)) await new Promise((r) => setTimeout(r, 1));
    inFlight++;
    result.sent++;
    done.push(one(o.paths[i % o.paths.length]!).finally(() => inFlight--));
  }
  await Promise.all(done);
  agent.destroy();
  result.elapsedMs = Math.round(performance.now() - started);
  result.rate = Math.round((result.completed * 1000) / result.elapsedMs);
  return result;
}
