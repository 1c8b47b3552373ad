/**
 * Optimal string alignment distance (Levenshtein plus adjacent transposition: "Lodnon" is 1 edit
 * from London) between code point sequences, computed only inside the diagonal band |i - j| <= max
 * (cells outside it exceed `max` anyway) and given up as soon as a whole row exceeds `max`.
 * Rows are reused typed arrays: verifying a typo candidate allocates nothing.
 */

const BIG = 1 << 20;

export class BoundedEditDistance {
  private prev2 = new Int32Array(64);
  private prev = new Int32Array(64);
  private cur = new Int32Array(64);

  /** True when the OSA distance of a[0..n) and b[0..m) is at most `max`. */
  within(a: ArrayLike<number>, n: number, b: ArrayLike<number>, m: number, max: number): boolean {
    if (Math.abs(n - m) > max) return false;
    if (this.cur.length < m + 1) {
      this.prev2 = new Int32Array(m + 1);
      this.prev = new Int32Array(m + 1);
      this.cur = new Int32Array(m + 1);
    }
    let { prev2, prev, cur } = this;
    for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : BIG;
    for (let i = 1; i <= n; i++) {
      const lo = Math.max(1, i - max);
      const hi = Math.min(m, i + max);
      cur[lo - 1] = lo - 1 === 0 ? i : BIG;
      let rowMin = cur[lo - 1]!;
      const ai = a[i - 1]!;
      for (let j = lo; j <= hi; j++) {
        const bj = b[j - 1]!;
        let v = prev[j - 1]! + (ai === bj ? 0 : 1);
        const del = prev[j]! + 1;
        if (del < v) v = del;
        const ins = cur[j - 1]! + 1;
        if (ins < v) v = ins;
        if (i > 1 && j > 1 && ai === b[j - 2] && a[i - 2] === bj) {
          const tr = prev2[j - 2]! + 1;
          if (tr < v) v = tr;
        }
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (hi < m) cur[hi + 1] = BIG;
      if (rowMin > max) return false;
      const t = prev2;
      prev2 = prev;
      prev = cur;
      cur = t;
    }
    return prev[m]! <= max;
  }
}

/** Code points of a string into a plain array. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/** Shorthand for one-off checks (tests, benches). */
export function osaDistanceWithin(a: readonly number[], b: readonly number[], max: number): boolean {
  return new BoundedEditDistance().within(a, a.length, b, b.length, max);
}

/** Decodes UTF-8 bytes[start, end) into code points; returns how many were written. */
export function decodeCodePoints(bytes: Uint8Array, start: number, end: number, out: Int32Array): number {
  let n = 0;
  let i = start;
  while (i < end && n < out.length) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      out[n++] = b0;
      i += 1;
    } else if (b0 < 0xe0) {
      out[n++] = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if (b0 < 0xf0) {
      out[n++] = ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      out[n++] = ((b0 & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
      i += 4;
    }
  }
  return n;
}
