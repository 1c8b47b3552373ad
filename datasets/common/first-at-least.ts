/**
 * The first index of an ascending numeric array whose value is at least `value` (the array's length
 * when none is): a lower bound, by binary search.
 */
export function firstAtLeast(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
