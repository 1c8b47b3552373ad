/**
 * Per-step amounts from the windows GRIB messages cover. GFS publishes accumulations and
 * averages over windows that alternate between 6-hour buckets (6-9, 6-12) and running totals
 * (0-9, 0-12); the 1 degree precipitation series carries both. A step's window (p, s] is
 * obtained by walking from p to s over published windows (shortest walk): a window [a, b]
 * adds its integral going forward and subtracts it going back, e.g. (9, 12] = [6, 12] - [6, 9]
 * or [0, 12] - [0, 9]. Averages are turned into integrals (value x hours) and back.
 *
 * Maxima and minima cannot be differenced: a step takes the window that is exactly (p, s], or
 * the windows that partition it, or else the shortest published window ending at s that contains
 * it (then the value is the extreme over that longer window; documented in README).
 */

export interface Window {
  start: number;
  end: number;
}

/** value(p, s] = sum(terms[k].factor * window value) / divisor. */
export interface LinearPlan {
  kind: "linear";
  terms: { window: number; factor: number }[];
  divisor: number;
}

export interface ExtremePlan {
  kind: "extreme";
  windows: number[];
  /** True when the windows cover exactly (p, s]; false for a longer window ending at s. */
  exact: boolean;
}

export type StepPlan = LinearPlan | ExtremePlan;

/** Plan for an accumulation (`mean` false) or an average (`mean` true) over (p, s]. */
export function planLinear(windows: readonly Window[], p: number, s: number, mean: boolean): LinearPlan | undefined {
  if (!(s > p)) return undefined;
  // Breadth-first search over hours; shorter windows first, so buckets are preferred on ties.
  const order = windows.map((w, k) => ({ w, k })).sort((x, y) => x.w.end - x.w.start - (y.w.end - y.w.start));
  const adjacency = new Map<number, { to: number; window: number; sign: number }[]>();
  const link = (from: number, to: number, window: number, sign: number): void => {
    const list = adjacency.get(from) ?? [];
    list.push({ to, window, sign });
    adjacency.set(from, list);
  };
  for (const { w, k } of order) {
    if (!(w.end > w.start)) continue;
    link(w.start, w.end, k, 1);
    link(w.end, w.start, k, -1);
  }
  const previous = new Map<number, { from: number; window: number; sign: number }>();
  const queue = [p];
  const seen = new Set([p]);
  while (queue.length > 0 && !seen.has(s)) {
    const at = queue.shift()!;
    for (const edge of adjacency.get(at) ?? []) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      previous.set(edge.to, { from: at, window: edge.window, sign: edge.sign });
      queue.push(edge.to);
    }
  }
  if (!seen.has(s)) return undefined;
  const terms: LinearPlan["terms"] = [];
  for (let at = s; at !== p; ) {
    const step = previous.get(at)!;
    const w = windows[step.window]!;
    terms.push({ window: step.window, factor: step.sign * (mean ? w.end - w.start : 1) });
    at = step.from;
  }
  terms.reverse();
  return { kind: "linear", terms, divisor: mean ? s - p : 1 };
}

/** Plan for a maximum or minimum over (p, s]. */
export function planExtreme(windows: readonly Window[], p: number, s: number): ExtremePlan | undefined {
  if (!(s > p)) return undefined;
  const chain: number[] = [];
  for (let at = s; at > p; ) {
    let best = -1;
    for (const [k, w] of windows.entries()) {
      if (w.end === at && w.start >= p && w.start < at && (best < 0 || w.start < windows[best]!.start)) best = k;
    }
    if (best < 0) break;
    chain.push(best);
    at = windows[best]!.start;
    if (at === p) return { kind: "extreme", windows: chain, exact: true };
  }
  let container = -1;
  for (const [k, w] of windows.entries()) {
    if (w.end === s && w.start <= p && (container < 0 || w.start > windows[container]!.start)) container = k;
  }
  return container < 0 ? undefined : { kind: "extreme", windows: [container], exact: false };
}

/**
 * Applies a plan cell by cell. `values[k]` are the window fields (same length); `clampZero`
 * drops the small negative amounts that differencing two packed totals can leave.
 */
export function applyPlan(plan: StepPlan, values: readonly Float32Array[], mode: "sum" | "mean" | "max" | "min", out: Float32Array): void {
  const n = out.length;
  if (plan.kind === "linear") {
    for (let c = 0; c < n; c++) {
      let acc = 0;
      for (const t of plan.terms) acc += t.factor * values[t.window]![c]!;
      const v = acc / plan.divisor;
      out[c] = v < 0 ? 0 : v;
    }
    return;
  }
  const isMax = mode === "max";
  for (let c = 0; c < n; c++) {
    let best = NaN;
    for (const w of plan.windows) {
      const x = values[w]![c]!;
      if (Number.isNaN(x)) {
        best = NaN;
        break;
      }
      if (Number.isNaN(best) || (isMax ? x > best : x < best)) best = x;
    }
    out[c] = best;
  }
}
