/**
 * Turns the collected fields of one run into a run file payload: decides the run's steps and
 * their windows, plans each variable's per-step values (instant fields as they are, windowed
 * fields through windows.ts), then transposes band by band into time-major cell series.
 */
import type { Logger } from "../../datasets/common/log.ts";
import { Progress } from "../common/progress.ts";
import { RunWriter, type RunPayload } from "../../datasets/forecast/run-writer.ts";
import type { RunMeta, StoredVariable } from "../../datasets/forecast/types.ts";
import { VARIABLE_NAMES, variableDefinition } from "../../datasets/forecast/variables.ts";
import type { CollectedRun } from "./collect.ts";
import type { FieldStore } from "./field-store.ts";
import type { ModelDomain } from "./models/types.ts";
import { applyPlan, planExtreme, planLinear, type StepPlan, type Window } from "./windows.ts";

/** Cells per tile: 4 x 4 keeps a point read to a few kilobytes per variable. */
export const TILE = { lat: 4, lon: 4 };

type Source = { kind: "field"; key: string } | { kind: "plan"; plan: StepPlan; keys: string[] } | { kind: "none" };

export interface BuiltRun {
  meta: RunMeta;
  payload: RunPayload;
  /** Per variable: steps filled, steps derived by differencing, steps using a longer window. */
  coverage: Record<string, { filled: number; derived: number; widened: number }>;
}

function parseWindow(w: string): Window {
  const [a, b] = w.split("-").map(Number) as [number, number];
  return { start: a, end: b };
}

/** The steps a run has data for, in the domain's nominal list, and their window starts. */
export function runSteps(domain: ModelDomain, run: CollectedRun, wanted: readonly number[] = domain.steps): { steps: number[]; intervalStart: number[] } {
  const present = new Set<number>();
  for (const perVar of run.fields.values()) for (const w of perVar.keys()) present.add(parseWindow(w).end);
  const steps = domain.steps.filter((s) => present.has(s) && wanted.includes(s));
  const intervalStart = steps.map((s, i) => {
    if (i > 0) return steps[i - 1]!;
    const k = domain.steps.indexOf(s);
    return k > 0 ? domain.steps[k - 1]! : s;
  });
  return { steps, intervalStart };
}

export interface BuildOptions {
  /** Lead times wanted (default all the domain's). */
  steps?: readonly number[];
  /**
   * Spill the payload to this file instead of memory (large runs), after `offset(meta)` bytes
   * left for the header (the run file's temporary path: the payload is then written once).
   */
  spill?: { path: string; offset: (meta: RunMeta) => number };
}

export function buildRun(domain: ModelDomain, run: CollectedRun, store: FieldStore, logger: Logger, options: BuildOptions = {}): BuiltRun {
  const wanted = options.steps ?? domain.steps;
  // Of several entries with one name (alternatives, in order of preference), the first with data.
  const chosen = new Map<string, number>();
  for (const k of [...run.fields.keys()].sort((a, b) => a - b)) {
    const name = domain.variables[k]!.name;
    if (!chosen.has(name)) chosen.set(name, k);
  }
  const used: CollectedRun = { ...run, fields: new Map([...chosen.values()].map((k) => [k, run.fields.get(k)!])) };
  const { steps, intervalStart } = runSteps(domain, used, wanted);
  const indices = [...chosen.values()].sort((a, b) => VARIABLE_NAMES.indexOf(domain.variables[a]!.name) - VARIABLE_NAMES.indexOf(domain.variables[b]!.name));
  const variables: StoredVariable[] = [];
  const sources: Source[][] = [];
  const coverage: BuiltRun["coverage"] = {};
  for (const k of indices) {
    const v = domain.variables[k]!;
    const def = variableDefinition(v.name);
    if (!def) throw new Error(`model ${domain.id}: variable ${v.name} is not in the vocabulary (datasets/forecast/variables.ts)`);
    variables.push({ name: v.name, unit: def.unit, scale: v.scale ?? def.scale, offset: def.offset, aggregation: v.aggregation });
    const perVar = run.fields.get(k)!;
    const windowNames = [...perVar.keys()];
    const windows = windowNames.map(parseWindow);
    const cov = { filled: 0, derived: 0, widened: 0 };
    const perStep: Source[] = steps.map((s, i) => {
      if (v.aggregation === "instant") {
        const key = perVar.get(`${s}-${s}`);
        if (key) cov.filled++;
        return key ? { kind: "field", key } : { kind: "none" };
      }
      const p = intervalStart[i]!;
      const plan = v.aggregation === "sum" || v.aggregation === "mean" ? planLinear(windows, p, s, v.aggregation === "mean") : planExtreme(windows, p, s);
      if (!plan) return { kind: "none" };
      cov.filled++;
      if (plan.kind === "linear" && plan.terms.length > 1) cov.derived++;
      if (plan.kind === "extreme" && !plan.exact) cov.widened++;
      return { kind: "plan", plan, keys: windowNames.map((w) => perVar.get(w)!) };
    });
    coverage[v.name] = cov;
    sources.push(perStep);
  }
  const meta: RunMeta = {
    model: domain.id,
    runTime: run.runTime.toISOString(),
    steps,
    intervalStart,
    grid: domain.grid,
    tile: TILE,
    variables,
    absent: VARIABLE_NAMES.filter((n) => !variables.some((v) => v.name === n)),
    runHours: domain.runHours,
  };
  const writer = new RunWriter(meta, options.spill ? { spillPath: options.spill.path, spillOffset: options.spill.offset(meta) } : {});
  const nSteps = steps.length;
  const progress = new Progress(logger, `assemble ${domain.id} ${meta.runTime}`, domain.grid.nLat, "rows");
  for (let band = writer.nextBand(); band; band = writer.nextBand()) {
    const first = band.firstRow * domain.grid.nLon;
    const count = band.rows * domain.grid.nLon;
    const stepValues = new Float32Array(count);
    // A window's field serves several steps' differences: read it once per band (a packed
    // store decodes it on each read).
    const windowed = new Map<string, Float32Array>();
    const windowBand = (key: string): Float32Array => {
      let values = windowed.get(key);
      if (!values) {
        values = store.band(key, first, count);
        windowed.set(key, values);
      }
      return values;
    };
    const arrays = variables.map((variable, v) => {
      const out = new Float32Array(count * nSteps);
      for (let i = 0; i < nSteps; i++) {
        const src = sources[v]![i]!;
        if (src.kind === "none") stepValues.fill(NaN);
        else if (src.kind === "field") stepValues.set(store.band(src.key, first, count));
        else {
          const used = new Set(src.plan.kind === "linear" ? src.plan.terms.map((t) => t.window) : src.plan.windows);
          const inputs = src.keys.map((key, w) => (used.has(w) ? windowBand(key) : stepValues));
          applyPlan(src.plan, inputs, variable.aggregation as "sum" | "mean" | "max" | "min", stepValues);
        }
        for (let c = 0; c < count; c++) out[c * nSteps + i] = stepValues[c]!;
      }
      return out;
    });
    writer.add(arrays);
    progress.tick(band.rows);
  }
  progress.finish();
  logger.info("run assembled", { model: domain.id, runTime: meta.runTime, steps: nSteps, variables: variables.length, absent: meta.absent.length, coverage });
  return { meta, payload: writer.finish(), coverage };
}
