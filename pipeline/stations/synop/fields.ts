/** Small readers of SYNOP code figures: a slash or a non-digit gives undefined, never NaN. */

/** True when `g` is a five-character group of digits and solidi. */
export function isGroup(g: string): boolean {
  if (g.length !== 5) return false;
  for (let i = 0; i < 5; i++) {
    const c = g.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2f)) return false;
  }
  return true;
}

/** The number written in g[from, from+len), or undefined when any character is not a digit. */
export function num(g: string, from: number, len: number): number | undefined {
  let v = 0;
  for (let i = from; i < from + len; i++) {
    const c = g.charCodeAt(i) - 0x30;
    if (!(c >= 0 && c <= 9)) return undefined;
    v = v * 10 + c;
  }
  return v;
}

/** sTTT with s = 0 (positive) or 1 (negative), tenths of a degree; undefined when missing. */
export function signedTenths(sign: string, g: string, from: number): number | undefined {
  const v = num(g, from, 3);
  if (v === undefined || (sign !== "0" && sign !== "1")) return undefined;
  const t = sign === "1" ? -v / 10 : v / 10;
  return t === 0 ? 0 : t;
}

/** True when every character after the first `skip` is a solidus ("not reported"). */
export function allMissing(g: string, skip: number): boolean {
  for (let i = skip; i < g.length; i++) if (g.charCodeAt(i) !== 0x2f) return false;
  return true;
}
