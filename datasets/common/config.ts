/**
 * All configuration, read once, in one place. Entry points (server/main.ts, pipeline/cli.ts)
 * call `readConfig(process.env)` once and pass the result down; nothing else reads `process.env`.
 * Every variable is documented in README.md ("Configuration") with its default.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { ConfigError } from "./errors.ts";
import type { LogLevel } from "./log.ts";
import { PROJECT_ROOT } from "./paths.ts";

export interface Config {
  /** TCP port of the HTTP server. `0` picks a free port (tests). */
  port: number;
  /** Interface to bind. */
  host: string;
  /** Accepted API keys. Empty means "none configured": `npm start` then generates one per run. */
  apiKeys: string[];
  /** Where the artifacts live (absolute). */
  dataDir: string;
  logLevel: LogLevel;
  /** Whole-request time limit, milliseconds (node:http `requestTimeout`). */
  requestTimeoutMs: number;
  /** Time allowed to receive the request headers, milliseconds (node:http `headersTimeout`). */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open, milliseconds (node:http `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** A cluster worker whose event loop has not answered the primary for this long is killed and replaced, milliseconds (server/heartbeat.ts). */
  heartbeatTimeoutMs: number;
  /** Test only (GEODATA_TEST_HOOKS=1): a cluster worker blocks its event loop for ever on SIGUSR2, to test the primary's heartbeat. */
  testHooks: boolean;
  /** On SIGTERM, how long the server keeps answering with /health/ready at 503 before it closes, milliseconds (a balancer's time to notice). */
  shutdownDelayMs: number;
  /** Proxies (addresses or CIDRs) whose X-Forwarded-For names the client (GEODATA_TRUSTED_PROXIES); empty = none. */
  trustedProxies: string[];
  /** `npm start` serves only, never builds the embedded default (GEODATA_SERVE_ONLY=1): replicas of a shared or synced data directory. */
  serveOnly: boolean;
  /** How long SIGTERM waits for in-flight requests before closing sockets, milliseconds. */
  shutdownGraceMs: number;
  /** Per worker: bytes of whole answers kept by server/http/response-cache.ts, MiB; 0 = no cache. */
  responseCacheMb: number;
  /**
   * Station observations older than this many days before their station's newest report are
   * dropped (per station, not relative to the clock: see README "Station observations").
   */
  stationsRetentionDays: number;
  /** Forecast runs kept per model; older runs are removed when a new one is published. */
  forecastKeepRuns: number;
  /** Origins allowed to read answers from a web page: `*` or exact origins (server/http/cors.ts). */
  corsOrigins: "*" | string[];
  /** Per-key request limit (server/http/rate-limit.ts); undefined = no limit. */
  rateLimit?: { requests: number; windowSeconds: number };
  /** Port of the Prometheus metrics listener; undefined = no metrics listener. */
  metricsPort?: number;
  /** Server processes `npm start` runs (node:cluster workers, server/primary.ts); 1 = no cluster. */
  workers: number;
  /** GEODATA_API_KEYS_FILE: a file of keys (one per line, `#` comments) added to apiKeys, re-read on SIGHUP. */
  apiKeysFile?: string;
  /** The keys given in GEODATA_API_KEYS alone (apiKeys without the file's), for a reload of the file. */
  apiKeysFromEnv?: string[];
  /** Nightly: releases kept per dataset (the current one always stays). */
  keepReleases: number;
  /** Nightly: base of a local mirror of every upstream host (`BASE/<host>/<path>`); undefined = upstream. */
  mirror?: string;
  /** How often the server checks the datasets' release pointers, milliseconds (0 = only on SIGHUP). */
  releasePollMs: number;
  /** The background scrub re-hashes every serving file once per this many hours (0 = no scrub; server/datasets/scrub.ts). */
  scrubPeriodHours: number;
}

type Env = Record<string, string | undefined>;

/**
 * Ranges shared by an environment variable and the pipeline option that overrides it
 * (GEODATA_STATIONS_RETENTION_DAYS / stations --retention-days, GEODATA_FORECAST_KEEP_RUNS /
 * forecast --keep): one definition, so the two cannot drift apart.
 */
export const LIMITS = {
  stationsRetentionDays: { min: 1, max: 365_000 },
  forecastKeepRuns: { min: 1, max: 100 },
} as const;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  return value;
}

/** GEODATA_CORS_ORIGINS: empty or `*` = any origin, else comma-separated `http(s)://host[:port]`. */
function readCorsOrigins(env: Env): "*" | string[] {
  const raw = (env.GEODATA_CORS_ORIGINS ?? "").trim();
  if (raw === "" || raw === "*") return "*";
  const list = raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  for (const origin of list) {
    if (!/^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(origin)) {
      throw new ConfigError("GEODATA_CORS_ORIGINS", "* or comma-separated origins such as https://example.org or http://localhost:3000 (no path, no trailing slash)", origin);
    }
  }
  return list;
}

/** An on/off variable: `1` or `true` on, empty, `0` or `false` off. */
function readSwitch(env: Env, name: string): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "" || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw new ConfigError(name, "1 or 0 (true or false)", env[name] ?? "");
}

/** GEODATA_TRUSTED_PROXIES: comma-separated IPv4 or IPv6 addresses or CIDRs (e.g. 10.0.0.0/8, ::1). */
function readTrustedProxies(env: Env): string[] {
  const list = (env.GEODATA_TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  for (const entry of list) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address ?? "");
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) throw new ConfigError("GEODATA_TRUSTED_PROXIES", "comma-separated IP addresses or CIDRs such as 10.0.0.0/8, 127.0.0.1 or fd00::/8", entry);
  }
  return list;
}

/** GEODATA_RATE_LIMIT: empty or `off` = none, else `<requests>/<seconds>s`, e.g. `100/60s`. */
function readRateLimit(env: Env): { requests: number; windowSeconds: number } | undefined {
  const raw = (env.GEODATA_RATE_LIMIT ?? "").trim();
  if (raw === "" || raw === "off") return undefined;
  const m = /^(\d{1,9})\/(\d{1,7})s$/.exec(raw);
  const requests = m ? Number(m[1]) : 0;
  const windowSeconds = m ? Number(m[2]) : 0;
  if (!m || requests < 1 || windowSeconds < 1 || windowSeconds > 86_400) {
    throw new ConfigError("GEODATA_RATE_LIMIT", "off, or <requests>/<seconds>s with at least 1 request and 1 to 86400 seconds (e.g. 100/60s)", raw);
  }
  return { requests, windowSeconds };
}

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/**
 * The keys of GEODATA_API_KEYS_FILE: one per line, blank lines and `#` comments skipped, each
 * checked like the variable's. Read at startup and again on SIGHUP (server/service.ts).
 */
export function readApiKeysFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError("GEODATA_API_KEYS_FILE", "a readable file of keys, one per line", `${file} (${(err as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  const keys: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const key = raw.trim();
    if (key === "" || key.startsWith("#")) continue;
    if (!KEY_PATTERN.test(key)) throw new ConfigError("GEODATA_API_KEYS_FILE", "keys of 16 to 256 printable ASCII characters, one per line", `line ${i + 1} of length ${key.length}`);
    keys.push(key);
  }
  return keys;
}

/** A key must be long enough not to be guessed and printable (it travels in a header). */
const KEY_PATTERN = /^[\x21-\x7e]{16,256}$/;
export function readConfig(env: Env): Config {
  const keysRaw = env.GEODATA_API_KEYS ?? "";
  const apiKeys = keysRaw
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  for (const key of apiKeys) {
    // Never echo a key: say only which position is wrong.
    if (!KEY_PATTERN.test(key)) {
      throw new ConfigError(
        "GEODATA_API_KEYS",
        "comma-separated keys of 16 to 256 printable ASCII characters",
        `a key at position ${apiKeys.indexOf(key) + 1} of length ${key.length}`,
      );
    }
  }
  const logLevel = (env.GEODATA_LOG_LEVEL ?? "info").trim() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError("GEODATA_LOG_LEVEL", LOG_LEVELS.join(" | "), env.GEODATA_LOG_LEVEL ?? "");
  }
  const dataDirRaw = env.GEODATA_DATA_DIR?.trim();
  const apiKeysFile = env.GEODATA_API_KEYS_FILE?.trim() ? path.resolve(PROJECT_ROOT, env.GEODATA_API_KEYS_FILE.trim()) : undefined;
  const mirror = env.GEODATA_MIRROR?.trim() || undefined;
  return {
    port: readInt(env, "PORT", 8080, 0, 65535),
    host: env.HOST?.trim() || "0.0.0.0",
    apiKeys: apiKeysFile ? [...apiKeys, ...readApiKeysFile(apiKeysFile)] : apiKeys,
    apiKeysFile,
    apiKeysFromEnv: apiKeys,
    keepReleases: readInt(env, "GEODATA_KEEP_RELEASES", 3, 1, 1000),
    mirror: mirror && /^https?:\/\//i.test(mirror) ? mirror : mirror ? path.resolve(PROJECT_ROOT, mirror) : undefined,
    releasePollMs: readInt(env, "GEODATA_RELEASE_POLL_MS", 5_000, 0, 3_600_000),
    scrubPeriodHours: readInt(env, "GEODATA_SCRUB_PERIOD_HOURS", 168, 0, 87_600),
    dataDir: path.resolve(PROJECT_ROOT, dataDirRaw ? dataDirRaw : "data"),
    logLevel,
    requestTimeoutMs: readInt(env, "GEODATA_REQUEST_TIMEOUT_MS", 10_000, 100, 600_000),
    headersTimeoutMs: readInt(env, "GEODATA_HEADERS_TIMEOUT_MS", 5_000, 100, 600_000),
    keepAliveTimeoutMs: readInt(env, "GEODATA_KEEP_ALIVE_TIMEOUT_MS", 5_000, 100, 600_000),
    heartbeatTimeoutMs: readInt(env, "GEODATA_HEARTBEAT_TIMEOUT_MS", 5_000, 1_000, 600_000),
    testHooks: readSwitch(env, "GEODATA_TEST_HOOKS"),
    shutdownGraceMs: readInt(env, "GEODATA_SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    shutdownDelayMs: readInt(env, "GEODATA_SHUTDOWN_DELAY_MS", 5_000, 0, 600_000),
    trustedProxies: readTrustedProxies(env),
    serveOnly: readSwitch(env, "GEODATA_SERVE_ONLY"),
    responseCacheMb: readInt(env, "GEODATA_RESPONSE_CACHE_MB", 64, 0, 65_536),
    stationsRetentionDays: readInt(env, "GEODATA_STATIONS_RETENTION_DAYS", 10, LIMITS.stationsRetentionDays.min, LIMITS.stationsRetentionDays.max),
    forecastKeepRuns: readInt(env, "GEODATA_FORECAST_KEEP_RUNS", 2, LIMITS.forecastKeepRuns.min, LIMITS.forecastKeepRuns.max),
    workers: readInt(env, "GEODATA_WORKERS", os.availableParallelism(), 1, 256),
    corsOrigins: readCorsOrigins(env),
    rateLimit: readRateLimit(env),
    metricsPort: env.GEODATA_METRICS_PORT?.trim() ? readInt(env, "GEODATA_METRICS_PORT", 0, 0, 65535) : undefined,
  };
}
