/** Count, minimum, maximum and sum of a decoded field's values, missing (NaN) points left out: what ecCodes' statistics keys give. */
export function fieldStats(values: ArrayLike<number>): { count: number; min: number; max: number; sum: number } {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    count++;
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { count, min, max, sum };
}
