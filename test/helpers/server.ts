/**
 * Starts the real service on port 0 for a test, with a known key and captured log lines.
 */
import { readConfig, type Config } from "../../datasets/common/config.ts";
import { createLogger } from "../../datasets/common/log.ts";
import { createAccessLogger } from "../../server/http/access-log.ts";
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
