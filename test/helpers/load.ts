/**
 * A paced load for tests that need requests in flight while something else happens (a dataset
 * reload): requests are started on a fixed schedule (request i at start + i / rate) over
 * keep-alive connections, cycling through `paths`, until `stop()`. Every outcome is counted: each
 * status, and each failed request (connection error, reset, timeout) with its message. The load
 * is a condition of the test, never its measure: speed is for bench/.
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
  /** Requests that got an HTTP answer (any status). */
  completed: number;
  byStatus: Record<number, number>;
  /** Requests that got no HTTP answer, with the reason. */
  failures: string[];
  /** Status counts per path (route), to show every endpoint was exercised. */
  byPath: Record<string, Record<number, number>>;
}

export type LoadOptions = {
  baseUrl: string;
  paths: readonly string[];
  headers?: Record<string, string>;
  ratePerS: number;
  /** Requests allowed in flight at once (default 64). */
  maxInFlight?: number;
  timeoutMs?: number;
  /**
   * Closes a connection idle this long (default: as the server's Keep-Alive hint says, else
   * never). For a balancer that closes idle connections without saying when (HAProxy's
   * `timeout http-keep-alive`): a request sent on a connection as it closes gets no answer.
   */
  idleTimeoutMs?: number;
};

export interface Load {
  /** The counts so far; final once `stop()` has resolved. */
  readonly result: LoadResult;
  /** Resolves once `n` more requests than now have had their outcome (an answer or a failure). */
  answered(n: number): Promise<void>;
  /** Stops sending and waits for the requests in flight; the final counts. */
  stop(): Promise<LoadResult>;
}

export function startLoad(o: LoadOptions): Load {
  const url = new URL(o.baseUrl);
  const maxInFlight = o.maxInFlight ?? 64;
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight, ...(o.idleTimeoutMs !== undefined ? { timeout: o.idleTimeoutMs } : {}) });
  const result: LoadResult = { sent: 0, completed: 0, byStatus: {}, failures: [], byPath: {} };
  const outcomes = (): number => result.completed + result.failures.length;
  const waiters: { at: number; resolve: () => void }[] = [];
  const settled = (): void => {
    for (let k = waiters.length - 1; k >= 0; k--) {
      if (outcomes() >= waiters[k]!.at) waiters.splice(k, 1)[0]!.resolve();
    }
  };
  let inFlight = 0;
  let stopping = false;
  const done: Promise<void>[] = [];
  const one = (p: string): Promise<void> =>
    new Promise<void>((resolve) => {
      const req = http.get({ host: url.hostname, port: url.port, path: p, agent, headers: o.headers, timeout: o.timeoutMs ?? 10_000 }, (res) => {
        res.resume();
        res.on("end", () => {
          const s = res.statusCode ?? 0;
          result.byStatus[s] = (result.byStatus[s] ?? 0) + 1;
          const perPath = (result.byPath[p.split("?")[0]!] ??= {});
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
    }).finally(() => {
      inFlight--;
      settled();
    });
  const sending = (async () => {
    const started = performance.now();
    for (let i = 0; !stopping; i++) {
      const wait = started + (i * 1000) / o.ratePerS - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      while (inFlight >= maxInFlight && !stopping) await new Promise((r) => setTimeout(r, 1));
      if (stopping) break;
      inFlight++;
      result.sent++;
      done.push(one(o.paths[i % o.paths.length]!));
    }
  })();
  return {
    result,
    answered: (n) => new Promise<void>((resolve) => {
      waiters.push({ at: outcomes() + n, resolve });
      settled();
    }),
    async stop() {
      stopping = true;
      await sending;
      await Promise.all(done);
      agent.destroy();
      return result;
    },
  };
}
