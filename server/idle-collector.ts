/**
 * Gives a serving process's memory back when its traffic stops.
 *
 * Under load V8 grows its heap (the young generation alone to tens of MB) and keeps it committed
 * after the load ends: a server's event loop never tells V8 it is idle, so V8's own memory
 * reducer does not run. So once a second this looks at the CPU the process used, and in a second
 * of less than IDLE_CPU_MS it runs one full garbage collection that releases every page it can
 * (V8's "last resort" flavour, the one it runs before giving up on an allocation), when:
 * - there was a burst of traffic since the last collection (a second of BUSY_CPU_MS or more), or
 *   the resident size grew by GROWTH_BYTES since (traffic too light to make a second busy);
 * - and the last collection is MIN_SPACING_MS old: bursts that come and go every other second
 *   cost at most one collection in that time. Steady light traffic, whose seconds fall on either
 *   side of IDLE_CPU_MS, makes no second busy: it collects only when memory grew.
 *
 * - Cost: nothing while requests come (a timer a second, two system calls); the collection itself
 *   takes 30-45 ms, and a request that arrives meanwhile waits for it.
 * - Gain (docs/deploy.md "Sizing"): a process warmed with 500 requests of each of the HTTP bench's
 *   mixes held 134 MiB of private memory, 97 MiB after the collection; V8's share of it (the
 *   anonymous mappings) went from 71 to 33 MiB. glibc's heap does not shrink: what it freed in
 *   the middle stays its own.
 * - The first idle second after start collects too: what loading the datasets left behind.
 */
import v8 from "node:v8";
import vm from "node:vm";

/**
 * A second with less CPU than this (user plus system, milliseconds) is idle: 5 % of a core. A
 * server without requests on a small VM still uses 20-35 ms a second (its timers' wake-ups, the
 * scrub's hashing): at 1 % of a core no second was ever idle there, and nothing was collected.
 */
export const IDLE_CPU_MS = 50;
/** A second with at least this much CPU (milliseconds) is a burst of traffic: 10 % of a core. */
export const BUSY_CPU_MS = 100;
/** Growth of the resident size since the last collection that makes an idle second collect. */
export const GROWTH_BYTES = 16 * 2 ** 20;
/** How often the process looks, milliseconds. */
const CHECK_INTERVAL_MS = 1000;
/** Least time between two collections, milliseconds: their CPU stays under 1 % of a core. */
export const MIN_SPACING_MS = 5000;

/** What one look saw: CPU used since the previous look (milliseconds), the resident size (bytes), the clock (milliseconds). */
export interface Reading {
  cpuMs: number;
  rssBytes: number;
  nowMs: number;
}

/** The decision alone (tested without a process): see the module's comment. */
export class IdleWatch {
  /** Resident size after the last collection (or the lowest since); none before the first. */
  private baseline: number | undefined;
  private lastAtMs: number | undefined;
  private busySince = false;

  shouldCollect(reading: Reading): boolean {
    if (this.baseline !== undefined && reading.rssBytes < this.baseline) this.baseline = reading.rssBytes;
    if (reading.cpuMs >= BUSY_CPU_MS) this.busySince = true;
    if (reading.cpuMs >= IDLE_CPU_MS) return false;
    if (this.lastAtMs !== undefined && reading.nowMs - this.lastAtMs < MIN_SPACING_MS) return false;
    // The first idle second collects what loading left behind.
    return this.baseline === undefined || this.busySince || reading.rssBytes - this.baseline >= GROWTH_BYTES;
  }

  collected(rssBytes: number, nowMs: number): void {
    this.baseline = rssBytes;
    this.lastAtMs = nowMs;
    this.busySince = false;
  }
}

/**
 * V8's garbage collector as a function, without starting node with --expose-gc: the flag set at
 * run time installs `gc` in contexts made after it, so a new one hands it over (and the flag is
 * cleared again, so that no later context gets it). The main context's `gc`, if node was started
 * with the flag, is used as it is.
 */
function fullCollector(): () => void {
  let gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== "function") {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc");
    v8.setFlagsFromString("--no-expose-gc");
  }
  const collect = gc as (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
  return () => collect({ type: "major", execution: "sync", flavor: "last-resort" });
}

export interface Collection {
  rssBeforeBytes: number;
  rssAfterBytes: number;
  ms: number;
}

/** Starts the once-a-second look, for the life of the process (an unref'd timer). */
export function startIdleCollector(onCollect: (c: Collection) => void): void {
  const watch = new IdleWatch();
  const collect = fullCollector();
  let cpu = process.cpuUsage();
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const rssBeforeBytes = process.memoryUsage.rss();
    const started = performance.now();
    if (!watch.shouldCollect({ cpuMs: (used.user + used.system) / 1000, rssBytes: rssBeforeBytes, nowMs: started })) return;
    collect();
    const rssAfterBytes = process.memoryUsage.rss();
    watch.collected(rssAfterBytes, performance.now());
    // The collection's own CPU is not the next second's traffic.
    cpu = process.cpuUsage();
    onCollect({ rssBeforeBytes, rssAfterBytes, ms: performance.now() - started });
  }, CHECK_INTERVAL_MS);
  timer.unref();
}
