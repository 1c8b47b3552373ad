/**
 * Precipitation probabilities. GFS and the other deterministic models carry none, and none may be
 * invented: the slot probability is a neighbourhood share (or, for an ensemble, a share of
 * members, which is the same count over members instead of nodes), and the daily probability
 * combines the slots.
 */

/**
 * The share, in percent, of the values that reach the threshold: 100 × (number of values
 * >= `thresholdMm`) / (number of values that are not NaN), rounded to the nearest integer with
 * halves up (1 of 8 → 12.5 → 13). Used over the grid nodes of a neighbourhood (for example the
 * 3×3 nodes around the point) with their window precipitation in mm, or over ensemble members.
 * The comparison is inclusive (a node with exactly the threshold counts). NaN values (missing
 * nodes, for example beyond a regional grid's edge) are left out of both counts; when no value is
 * left the result is NaN, for the caller to write as null.
 */
export function neighbourhoodProbability(values: ArrayLike<number>, thresholdMm = 0.1): number {
  let present = 0;
  let wet = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    present++;
    if (v >= thresholdMm) wet++;
  }
  return present === 0 ? NaN : Math.round((100 * wet) / present);
}

/**
 * The probability, in percent, of precipitation in at least one of a day's slots:
 * 100 × (1 − Π (1 − pᵢ/100)), the complement of "dry in every slot", assuming the slots
 * independent. They are not (rain in one hour makes rain in the next likelier), so the value is an
 * upper bound of the true daily chance when slots are positively correlated, and it is at least
 * the largest slot probability. Each pᵢ is clamped to [0, 100]; NaN entries are ignored; an
 * empty list (or only NaN) gives NaN. Not rounded: the caller rounds for the wire.
 */
export function dailyProbability(slotProbabilitiesPercent: readonly number[]): number {
  let dry = 1;
  let present = 0;
  for (const p of slotProbabilitiesPercent) {
    if (Number.isNaN(p)) continue;
    present++;
    dry *= 1 - Math.min(Math.max(p, 0), 100) / 100;
  }
  return present === 0 ? NaN : 100 * (1 - dry);
}
