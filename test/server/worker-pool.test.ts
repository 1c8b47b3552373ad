/**
 * The pack policy's rule (server/worker-pool.ts), as its comment states it: one worker accepts at
 * first; one more after two busy readings with half a core idle; one fewer after six readings
 * whose load fits in one fewer; the excess connections of the heaviest worker close.
 */
import { describe, expect, it } from "vitest";
import { BUSY_ELU, decide, FRESH_MEMORY, idleCoresBetween, isPoolMessage, PACK_AFTER_TICKS, SPREAD_AFTER_TICKS, type PoolMemory, type WorkerReading } from "../../server/worker-pool.ts";

const worker = (id: number, over: Partial<WorkerReading> = {}): WorkerReading => ({ id, ready: true, accepting: false, elu: 0, connections: 0, ...over });

/** Applies the same reading `times` times, returning the decisions. */
function run(workers: WorkerReading[], idleCores: number, times: number): ReturnType<typeof decide>[] {
  let memory: PoolMemory = FRESH_MEMORY;
  const out = [];
  for (let k = 0; k < times; k++) {
    const d = decide({ workers, idleCores }, memory);
    memory = d.memory;
    out.push(d);
  }
  return out;
}

describe("decide", () => {
  it("gives the port to the first ready worker when none accepts, and to none when none is ready", () => {
    expect(decide({ workers: [worker(3), worker(2), worker(1, { ready: false })], idleCores: 0 }, FRESH_MEMORY).accept).toBe(2);
    expect(decide({ workers: [worker(1, { ready: false })], idleCores: 2 }, FRESH_MEMORY)).toEqual({ memory: FRESH_MEMORY });
    expect(decide({ workers: [], idleCores: 2 }, FRESH_MEMORY)).toEqual({ memory: FRESH_MEMORY });
  });

  it("adds a worker after two busy readings with half a core idle, and every connection closes once to be dealt again", () => {
    const busy = [worker(1, { accepting: true, elu: 0.97, connections: 50 }), worker(2)];
    const decisions = run(busy, 0.6, SPREAD_AFTER_TICKS);
    expect(decisions[0]!.accept).toBeUndefined();
    expect(decisions[1]).toEqual({ accept: 2, shed: { ids: [1], share: 1 }, memory: FRESH_MEMORY });
  });

  it("does not add a worker when the machine has no idle core (the load generator or another process has it)", () => {
    const busy = [worker(1, { accepting: true, elu: 1, connections: 50 }), worker(2)];
    expect(run(busy, 0.49, 10).every((d) => d.accept === undefined && d.shed === undefined)).toBe(true);
  });

  it("does not add a worker while one accepting worker is not busy, nor when no other is ready", () => {
    const oneIdle = [worker(1, { accepting: true, elu: 1 }), worker(2, { accepting: true, elu: BUSY_ELU - 0.01 }), worker(3)];
    expect(run(oneIdle, 1.5, 10).every((d) => d.accept === undefined)).toBe(true);
    const noneReady = [worker(1, { accepting: true, elu: 1 }), worker(2, { ready: false })];
    expect(run(noneReady, 1, 10).every((d) => d.accept === undefined)).toBe(true);
  });

  it("a reading that is not busy starts the count again", () => {
    const busy = { workers: [worker(1, { accepting: true, elu: 0.9 }), worker(2)], idleCores: 1 };
    const calm = { workers: [worker(1, { accepting: true, elu: 0.5 }), worker(2)], idleCores: 1 };
    let memory = decide(busy, FRESH_MEMORY).memory;
    memory = decide(calm, memory).memory;
    expect(decide(busy, memory).accept).toBeUndefined();
  });

  it("stops the last-forked accepting worker after six readings whose load fits in one fewer", () => {
    const light = [worker(1, { accepting: true, elu: 0.3, connections: 10 }), worker(2, { accepting: true, elu: 0.3, connections: 10 })];
    const decisions = run(light, 1.4, PACK_AFTER_TICKS);
    expect(decisions.slice(0, -1).every((d) => d.stopAccepting === undefined)).toBe(true);
    expect(decisions.at(-1)!.stopAccepting).toBe(2);
    // 0.35 + 0.3 > 0.6 (one worker at PACK_LOAD): both stay.
    const fuller = [worker(1, { accepting: true, elu: 0.35, connections: 10 }), worker(2, { accepting: true, elu: 0.3, connections: 10 })];
    expect(run(fuller, 1.4, 20).every((d) => d.stopAccepting === undefined)).toBe(true);
    // Never below one accepting worker.
    expect(run([worker(1, { accepting: true, elu: 0 })], 2, 20).every((d) => d.stopAccepting === undefined)).toBe(true);
  });

  it("closes the excess connections of the heaviest accepting worker (over a tenth of the mean, at least 2)", () => {
    const uneven = [worker(1, { accepting: true, elu: 0.8, connections: 31 }), worker(2, { accepting: true, elu: 0.8, connections: 19 })];
    const d = decide({ workers: uneven, idleCores: 0 }, FRESH_MEMORY);
    expect(d.shed?.ids).toEqual([1]);
    expect(d.shed?.share).toBeCloseTo(6 / 31, 10);
    const even = [worker(1, { accepting: true, elu: 0.8, connections: 27 }), worker(2, { accepting: true, elu: 0.8, connections: 23 })];
    expect(decide({ workers: even, idleCores: 0 }, FRESH_MEMORY).shed).toBeUndefined();
    const few = [worker(1, { accepting: true, connections: 3 }), worker(2, { accepting: true, connections: 0 })];
    expect(decide({ workers: few, idleCores: 0 }, FRESH_MEMORY).shed).toBeUndefined();
  });
});

describe("idleCoresBetween", () => {
  it("sums the idle time of every core over the elapsed time", () => {
    const at = (...idle: number[]) => idle.map((i) => ({ times: { idle: i } }));
    expect(idleCoresBetween(at(1000, 2000), at(1400, 2100), 500)).toBeCloseTo(1, 10);
    expect(idleCoresBetween(at(0, 0), at(0, 0), 500)).toBe(0);
    // A core list that changed, or no time elapsed: nothing known, nothing idle.
    expect(idleCoresBetween(at(0), at(10, 10), 500)).toBe(0);
    expect(idleCoresBetween(at(0), at(10), 0)).toBe(0);
  });
});

describe("isPoolMessage", () => {
  it("tells the pool's messages from prom-client's and node's", () => {
    expect(isPoolMessage({ geodataPool: "load", elu: 0.5, connections: 3 })).toBe(true);
    expect(isPoolMessage({ type: "prom-client:getMetricsReq", requestId: 1 })).toBe(false);
    expect(isPoolMessage(null)).toBe(false);
    expect(isPoolMessage("accept")).toBe(false);
  });
});
