/**
 * Which cluster workers accept new connections (GEODATA_WORKER_POLICY=pack, the default): the
 * primary's decision, as a pure function of what it last read, and the messages it exchanges
 * with the workers about it (server/primary.ts sends, server/pool-worker.ts answers).
 *
 * Every worker loads the datasets and stays ready, but only as many accept connections as the
 * load needs: one at first; one more when every accepting worker has been busy for a second
 * (event-loop utilization ≥ BUSY_ELU) while the machine had at least half a core idle; one fewer
 * when the accepting workers' load has fitted in one fewer for three seconds. A worker that stops
 * accepting closes each of its connections after the answer in progress (`Connection: close`), so
 * its clients reconnect to one that accepts; when one more starts, the busy ones close each of
 * theirs once, so that the clients reconnect and are dealt out over all (keep-alive connections
 * would otherwise stay where they are), and a worker holding well over the mean of connections
 * closes the excess.
 *
 * Why: a worker that shares its core with another busy process is preempted in the middle of its
 * work. Measured on 2 cores with the load generator on the same machine (docs/http.md "Ninth
 * pass"), two workers sharing 50 connections used up to 40 % more CPU per request than one
 * serving them all, and one answered as many requests or up to 30 % more, with half the p99. A second
 * worker adds throughput only when a core is idle, which is what the rule asks before spreading.
 * `spread` keeps node:cluster's round robin over every worker (all accept from the start).
 */

/** How often the workers report their load and the primary decides, ms. */
export const POOL_TICK_MS = 500;
/** Event-loop utilization (0-1) from which a worker counts as busy. */
export const BUSY_ELU = 0.85;
/** Idle CPU of the machine, in cores, that another worker could use. */
export const MIN_IDLE_CORES = 0.5;
/** Consecutive busy readings before one more worker accepts (1 s). */
export const SPREAD_AFTER_TICKS = 2;
/** Consecutive readings with room to spare before one fewer accepts (3 s). */
export const PACK_AFTER_TICKS = 6;
/** Load per remaining worker under which one fewer would do: the accepting workers' utilization summed ≤ (n − 1) × PACK_LOAD. */
export const PACK_LOAD = 0.6;
/** Connections a worker may hold above the accepting workers' mean before it closes the excess (a share of the mean, at least MIN_EXCESS). */
export const EXCESS_SHARE = 0.1;
export const MIN_EXCESS = 2;

export interface WorkerReading {
  /** node:cluster's worker id (fork order). */
  id: number;
  /** Datasets loaded and the server built: it may accept. */
  ready: boolean;
  accepting: boolean;
  /** Event-loop utilization over the last tick, 0-1. */
  elu: number;
  /** Open client connections. */
  connections: number;
}

export interface PoolReading {
  workers: readonly WorkerReading[];
  /** Idle CPU of the whole machine over the last tick, in cores (0 to the number of cores). */
  idleCores: number;
}

/** What the primary remembers between readings. */
export interface PoolMemory {
  busyTicks: number;
  quietTicks: number;
}

export const FRESH_MEMORY: PoolMemory = { busyTicks: 0, quietTicks: 0 };

export interface PoolDecision {
  /** The worker that starts accepting, if any. */
  accept?: number;
  /** The worker that stops accepting, if any. */
  stopAccepting?: number;
  /** Workers that close this share (0-1) of their connections, so that clients spread over the accepting ones. */
  shed?: { ids: number[]; share: number };
  memory: PoolMemory;
}

/** The next step for the pool (see the file comment for the rules). */
export function decide(reading: PoolReading, memory: PoolMemory): PoolDecision {
  const accepting = reading.workers.filter((w) => w.accepting);
  const standby = reading.workers.filter((w) => w.ready && !w.accepting).sort((a, b) => a.id - b.id);
  // None accepts (start, or the only accepting worker died): the first ready one does, at once.
  if (accepting.length === 0) return standby.length > 0 ? { accept: standby[0]!.id, memory: FRESH_MEMORY } : { memory: FRESH_MEMORY };

  const allBusy = accepting.every((w) => w.elu >= BUSY_ELU);
  const busyTicks = allBusy && reading.idleCores >= MIN_IDLE_CORES && standby.length > 0 ? memory.busyTicks + 1 : 0;
  if (busyTicks >= SPREAD_AFTER_TICKS) {
    // Every connection closes once, after its next answer: the clients reconnect and node:cluster
    // deals them out in turn over all the accepting workers (shedding only the new worker's share
    // left a third of them on the old one when two shared 50 connections: 16,000 req/s where an
    // even split gave 20,000 on cache-off search).
    return { accept: standby[0]!.id, shed: { ids: accepting.map((w) => w.id), share: 1 }, memory: FRESH_MEMORY };
  }
  const load = accepting.reduce((sum, w) => sum + w.elu, 0);
  const quietTicks = accepting.length > 1 && load <= (accepting.length - 1) * PACK_LOAD ? memory.quietTicks + 1 : 0;
  if (quietTicks >= PACK_AFTER_TICKS) {
    const last = accepting.reduce((a, b) => (b.id > a.id ? b : a));
    return { stopAccepting: last.id, memory: FRESH_MEMORY };
  }
  // Even out the connections: node:cluster deals a burst of reconnections mostly to the worker
  // that answers its hand-over first, the idle one. The excess of the heaviest closes, its clients
  // reconnect and are dealt again; a few ticks converge.
  if (accepting.length > 1) {
    const mean = accepting.reduce((sum, w) => sum + w.connections, 0) / accepting.length;
    const heaviest = accepting.reduce((a, b) => (b.connections > a.connections ? b : a));
    const excess = heaviest.connections - mean;
    if (excess > Math.max(MIN_EXCESS, EXCESS_SHARE * mean)) {
      return { shed: { ids: [heaviest.id], share: excess / heaviest.connections }, memory: { busyTicks, quietTicks } };
    }
  }
  return { memory: { busyTicks, quietTicks } };
}

/** Idle CPU in cores between two readings of os.cpus() (idle ms summed over the cores / elapsed ms). */
export function idleCoresBetween(before: readonly { times: { idle: number } }[], after: readonly { times: { idle: number } }[], elapsedMs: number): number {
  if (elapsedMs <= 0 || before.length !== after.length) return 0;
  let idleMs = 0;
  for (let k = 0; k < after.length; k++) idleMs += Math.max(0, after[k]!.times.idle - before[k]!.times.idle);
  return idleMs / elapsedMs;
}

/** Primary → worker. */
export type ToWorker =
  | { geodataPool: "accept" }
  | { geodataPool: "stop-accepting" }
  | { geodataPool: "shed"; share: number }
  /** How many workers accept: each holds 1/n of GEODATA_RATE_LIMIT. */
  | { geodataPool: "rate-shares"; shares: number };

/** Worker → primary. */
export type FromWorker = { geodataPool: "ready" } | { geodataPool: "load"; elu: number; connections: number };

export function isPoolMessage(m: unknown): m is ToWorker | FromWorker {
  return typeof m === "object" && m !== null && typeof (m as { geodataPool?: unknown }).geodataPool === "string";
}
