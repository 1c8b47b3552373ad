/**
 * The checks a release passes before it is published:
 * 1. the server's own startup checks, run in a child process (server/check-release.ts), so the
 *    pipeline never imports server code and a release is checked exactly as it will be loaded;
 * 2. its counts against the previous release's, within the configured tolerances (places within
 *    ±2 %, stations at least 80 %, ...), unless the allowlist accepts a known jump.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { DatasetName } from "../../datasets/catalog.ts";
import { ConfigError } from "../../datasets/common/errors.ts";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import type { Tolerance } from "./config.ts";

export interface ServerCheck {
  ok: boolean;
  reason?: string;
  counts?: Record<string, number>;
  builtAt?: string;
}

/** Runs the server's loader on a release directory. */
export function runServerCheck(dataset: DatasetName, dir: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerCheck> {
  return new Promise((resolve) => {
    const tsx = path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    const child = spawn(process.execPath, [tsx, path.join(PROJECT_ROOT, "server", "check-release.ts"), dataset, dir], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(line) as ServerCheck);
      } catch {
        resolve({ ok: false, reason: `the check exited ${code} without a result: ${err.trim().slice(-500)}` });
      }
    });
  });
}

/** An accepted jump of one count (pipeline/nightly/allowlist.json, documented in docs/pipeline.md). */
export interface AllowEntry {
  dataset: DatasetName;
  count: string;
  /** Why the jump is expected (required: an entry without a reason is refused). */
  description: string;
  /** Last day (YYYY-MM-DD, UTC) the entry applies; absent = until removed. */
  until?: string;
}

export function loadAllowlist(file: string | undefined): AllowEntry[] {
  if (!file) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError("allowlist", "a readable JSON array", `${path.basename(file)}: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new ConfigError("allowlist", "a JSON array of { dataset, count, description, until? }", typeof raw);
  return raw.map((e: unknown, i) => {
    const entry = e as Partial<AllowEntry>;
    if (typeof entry !== "object" || entry === null || typeof entry.dataset !== "string" || typeof entry.count !== "string" || typeof entry.description !== "string" || entry.description.trim() === "") {
      throw new ConfigError(`allowlist[${i}]`, "{ dataset, count, description, until? } with a non-empty description", JSON.stringify(e));
    }
    if (entry.until !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(entry.until)) throw new ConfigError(`allowlist[${i}].until`, "YYYY-MM-DD", String(entry.until));
    return entry as AllowEntry;
  });
}

export interface CountDelta {
  previous: number;
  now: number;
  /** now / previous, 4 decimals (undefined when previous is 0). */
  ratio: number | undefined;
}

export interface CountCheck {
  deltas: Record<string, CountDelta>;
  /** Counts out of tolerance and not allowlisted, as messages. */
  violations: string[];
  /** Counts out of tolerance accepted by the allowlist. */
  allowed: string[];
}

/** Compares every count of the new release with the previous one (none: nothing to compare). */
export function compareCounts(dataset: DatasetName, previous: Record<string, number> | undefined, now: Record<string, number>, tolerances: readonly Tolerance[], allowlist: readonly AllowEntry[], today: Date): CountCheck {
  const deltas: Record<string, CountDelta> = {};
  const check: CountCheck = { deltas, violations: [], allowed: [] };
  if (!previous) return check;
  for (const [name, value] of Object.entries(now)) {
    const before = previous[name];
    if (before === undefined) continue;
    deltas[name] = { previous: before, now: value, ratio: before === 0 ? undefined : Math.round((value / before) * 10_000) / 10_000 };
  }
  const day = today.toISOString().slice(0, 10);
  for (const t of tolerances) {
    const d = deltas[t.count];
    if (!d) continue;
    const ratio = d.previous === 0 ? (d.now === 0 ? 1 : Infinity) : d.now / d.previous;
    const inRange = ratio >= t.minRatio && (t.maxRatio === undefined || ratio <= t.maxRatio);
    if (inRange) continue;
    const range = t.maxRatio === undefined ? `at least ${t.minRatio} x` : `${t.minRatio} to ${t.maxRatio} x`;
    const message = `count ${t.count}: expected ${range} the previous release's ${d.previous}, got ${d.now}`;
    const allow = allowlist.find((a) => a.dataset === dataset && a.count === t.count && (a.until === undefined || a.until >= day));
    if (allow) check.allowed.push(`${message} (allowlisted: ${allow.description})`);
    else check.violations.push(message);
  }
  return check;
}
