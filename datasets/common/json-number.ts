/**
 * A number's JSON text, as JSON.stringify writes it (NaN and ±Infinity are `null`, −0 is `0`),
 * for the answers written as text (the station observations, the weather answers). Most of their
 * values are whole or in tenths (degrees, mm, %, 12.5 % cloud steps, UNIX seconds): those are
 * written from whole numbers, whose text V8 keeps in its number-string cache, instead of the
 * shortest-digits conversion of a double, which costs about a tenth of a microsecond a value.
 */
export function jsonNumber(x: number): string {
  const tenths = Math.round(x * 10);
  if (tenths / 10 === x && tenths > -1e9 && tenths < 1e9) {
    const whole = (tenths / 10) | 0;
    const digit = tenths - whole * 10;
    if (digit === 0) return String(whole);
    if (whole === 0) return digit < 0 ? `-0.${-digit}` : `0.${digit}`;
    return `${whole}.${digit < 0 ? -digit : digit}`;
  }
  return Number.isFinite(x) ? String(x) : "null";
}
