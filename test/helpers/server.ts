/**
 * Starts the real service on port 0 for a test, with a known key and captured log lines.
 */
import { readConfig, type Config } from "../../datasets/common/config.ts";
import { createLogger } from "../../datasets/common/log.ts";
import { createAccessLogger } from "../../server/http/access-log.ts";
import { afterAll, beforeAll } from "vitest";
import { ensureDefaultData } from "./default-data.ts";
import { startService, type Service } from "../../server/service.ts";

export const TEST_KEY = "test-key-0123456789abcdef";
export const OTHER_KEY = "other-key-0123456789abcdef";

export interface TestServer {
  baseUrl: string;
  service: Service;
  config: Config;
  /** Every log line written (server and access), as raw JSON text. */
  logLines: string[];
  get(pathAndQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** `now` fixes the instant the server answers for (local times, sunrise, DST), so answers do not depend on the run's date. */
export async function startTestServer(options: { dataDir: string; env?: Record<string, string>; now?: () => Date }): Promise<TestServer> {
  const config = readConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    GEODATA_API_KEYS: `${TEST_KEY},${OTHER_KEY}`,
    GEODATA_DATA_DIR: options.dataDir,
    GEODATA_SHUTDOWN_GRACE_MS: "2000",
    ...options.env,
  });
  const logLines: string[] = [];
  const sink = (line: string): void => {
    logLines.push(line);
  };
  const service = await startService({
    config,
    logger: createLogger({ sink, minLevel: "debug" }),
    accessLogger: createAccessLogger(sink),
    ...(options.now ? { now: options.now } : {}),
  });
  const baseUrl = `http://127.0.0.1:${service.running.port}`;
  return {
    baseUrl,
    service,
    config,
    logLines,
    get(pathAndQuery, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const k = key === undefined ? TEST_KEY : key;
      if (k !== null) headers.set("X-Api-Key", k);
      return fetch(baseUrl + pathAndQuery, { ...rest, headers });
    },
    close: () => service.stop(),
  };
}

/**
 * A server with the response caches and one without (GEODATA_RESPONSE_CACHE_MB=0) on the same
 * data and clock, started before the describe block's tests and closed after them: an answer
 * from a cache is checked against the one computed without it.
 */
export function cachedAndUncached(now: () => Date): { readonly cached: TestServer; readonly uncached: TestServer } {
  const pair = {} as { cached: TestServer; uncached: TestServer };
  beforeAll(async () => {
    const dataDir = await ensureDefaultData(["elevation", "admin", "places", "forecast", "stations"]);
    pair.cached = await startTestServer({ dataDir, now });
    pair.uncached = await startTestServer({ dataDir, now, env: { GEODATA_RESPONSE_CACHE_MB: "0" } });
  }, 600_000);
  afterAll(async () => {
    await pair.cached?.close();
    await pair.uncached?.close();
  });
  return pair;
}
