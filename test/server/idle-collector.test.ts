/**
 * The idle collector (server/idle-collector.ts): the decision alone, and a real server process
 * that gives memory back once its requests stop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { BUSY_CPU_MS, GROWTH_BYTES, IDLE_CPU_MS, IdleWatch, MIN_SPACING_MS } from "../../server/idle-collector.ts";
import { ensureDefaultData } from "../helpers/default-data.ts";
import { until } from "../helpers/until.ts";

const MiB = 2 ** 20;

describe("IdleWatch", () => {
  it("collects on the first idle second, whatever the size", () => {
    const watch = new IdleWatch();
    expect(watch.shouldCollect({ cpuMs: IDLE_CPU_MS, rssBytes: 100 * MiB, nowMs: 0 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: IDLE_CPU_MS - 1, rssBytes: 100 * MiB, nowMs: 1000 })).toBe(true);
  });

  it("then in an idle second after a busy one, never in a busy one, and not twice within MIN_SPACING_MS", () => {
    const watch = new IdleWatch();
    watch.collected(100 * MiB, 0);
    expect(watch.shouldCollect({ cpuMs: 0, rssBytes: 100 * MiB, nowMs: 1000 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: BUSY_CPU_MS, rssBytes: 300 * MiB, nowMs: 2000 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: 0, rssBytes: 300 * MiB, nowMs: MIN_SPACING_MS - 1 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: 0, rssBytes: 300 * MiB, nowMs: MIN_SPACING_MS })).toBe(true);
    watch.collected(120 * MiB, MIN_SPACING_MS);
    expect(watch.shouldCollect({ cpuMs: 0, rssBytes: 120 * MiB, nowMs: 3 * MIN_SPACING_MS })).toBe(false);
  });

  it("not after light traffic, whose seconds are neither idle nor busy", () => {
    const watch = new IdleWatch();
    watch.collected(100 * MiB, 0);
    for (let t = 1; t < 20; t++) expect(watch.shouldCollect({ cpuMs: t % 2 === 0 ? IDLE_CPU_MS - 1 : BUSY_CPU_MS - 1, rssBytes: 100 * MiB, nowMs: t * 1000 })).toBe(false);
  });

  it("after quiet traffic, once the size has grown by GROWTH_BYTES from the lowest seen", () => {
    const watch = new IdleWatch();
    watch.collected(100 * MiB, 0);
    expect(watch.shouldCollect({ cpuMs: 1, rssBytes: 80 * MiB, nowMs: 10_000 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: 1, rssBytes: 80 * MiB + GROWTH_BYTES - 1, nowMs: 11_000 })).toBe(false);
    expect(watch.shouldCollect({ cpuMs: 1, rssBytes: 80 * MiB + GROWTH_BYTES, nowMs: 12_000 })).toBe(true);
  });
});

let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
});

describe.runIf(existsSync("/proc/self/smaps_rollup"))("a serving process at rest", () => {
  it("collects once after loading and again after a burst of requests, its resident size then smaller", async () => {
    const dataDir = await ensureDefaultData(["places"]);
    const key = "idle-key-0123456789abcdef";
    let log = "";
    child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", GEODATA_DATA_DIR: dataDir, GEODATA_API_KEYS: key, GEODATA_RELEASE_POLL_MS: "0", GEODATA_WORKERS: "1", GEODATA_LOG_LEVEL: "debug" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr!.on("data", (d: Buffer) => (log += d.toString("utf8")));
    const lines = (): Record<string, unknown>[] => log.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const collections = (): Record<string, unknown>[] => lines().filter((l) => l.msg === "collected garbage at idle");
    const named = (what: string) => () => `${what}; log:\n${log.slice(-2000)}`;
    const listening = await until(named("listening"), () => lines().find((l) => l.msg === "listening"), 120_000);
    await until(named("the collection after loading"), () => collections().length >= 1 || undefined, 30_000);
    // A burst that leaves garbage behind (answers, candidate lists, strings): 4,000 searches, 16 at a time.
    const names = ["Berlin", "Paris", "Lagos", "Lima", "Osaka", "Perth", "Quito", "Dakar", "Hanoi", "Oslo", "Cusco", "Tromso", "Nairobi", "Sapporo", "Recife", "Tbilisi"];
    const statuses = new Set<number>();
    for (let round = 0; round < 250; round++) {
      await Promise.all(names.map(async (q, i) => {
        const res = await fetch(`${listening.url as string}/geocode/search/2/json?q=${encodeURIComponent(q.slice(0, 3 + ((round + i) % (q.length - 2))))}&limit=${1 + ((round * 7 + i) % 20)}`, { headers: { "X-Api-Key": key } });
        await res.arrayBuffer();
        statuses.add(res.status);
      }));
    }
    expect([...statuses]).toEqual([200]);
    const after = await until(named("a collection after the burst"), () => collections()[1], 30_000);
    expect(after.rssAfterMiB as number).toBeLessThan(after.rssBeforeMiB as number);
    expect(after.ms as number).toBeGreaterThan(0);
  }, 240_000);
});
