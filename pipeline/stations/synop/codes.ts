/**
 * WMO Manual on Codes (WMO-No. 306, Vol. I.1) code tables used by the SYNOP decoder. Where a code
 * stands for a range, the value is the range's lower bound (documented in README).
 */

/** Code table 4377, horizontal visibility VV, metres (lower bound of the class); undefined for 51-55. */
export function visibilityMetres(vv: number): number | undefined {
  if (vv === 0) return 0; // "less than 0.1 km"
  if (vv <= 50) return vv * 100;
  if (vv <= 55) return undefined; // not used
  if (vv <= 80) return (vv - 50) * 1000;
  if (vv <= 88) return (30 + (vv - 80) * 5) * 1000;
  if (vv === 89) return 70_000; // "more than 70 km"
  // 90-99: the non-aviation scale.
  return [0, 50, 200, 500, 1000, 2000, 4000, 10_000, 20_000, 50_000][vv - 90];
}

/** Code table 3590, precipitation RRR, mm. 990 is a trace (0 mm). */
export function precipitationMm(rrr: number): { mm: number; trace: boolean } {
  if (rrr === 990) return { mm: 0, trace: true };
  if (rrr > 990) return { mm: (rrr - 990) / 10, trace: false };
  return { mm: rrr, trace: false };
}

/** Code table 4019, tR: hours of the period ending at observation; 0 means "not stated". */
export function precipitationPeriodHours(tr: number): number | undefined {
  return [undefined, 6, 12, 18, 24, 1, 2, 3, 9, 15][tr];
}

/** Code table 1677, hshs: height of a cloud layer's base, metres (lower bound); undefined for 51-55. */
export function layerHeightMetres(hh: number): number | undefined {
  if (hh <= 50) return hh * 30;
  if (hh <= 55) return undefined;
  if (hh <= 80) return (hh - 50) * 300;
  if (hh <= 89) return 9000 + (hh - 80) * 1500;
  return [0, 50, 100, 200, 300, 600, 1000, 1500, 2000, 2500][hh - 90];
}

/** a3 of 4a3hhh (code table 0264): the standard isobaric surface, hPa. */
export const ISOBARIC_SURFACE_HPA: Readonly<Record<string, number>> = { "1": 1000, "2": 925, "5": 500, "7": 700, "8": 850 };

/**
 * wawa (code table 4680, automatic stations) to the nearest ww (4677): the record's `wid` is always
 * a 4677 code. Unlisted wawa (reserved) map to nothing.
 */
export const WAWA_TO_WW: Readonly<Record<number, number>> = {
  0: 0, 1: 1, 2: 2, 3: 3, 4: 5, 5: 5, 10: 10, 11: 76, 12: 13, 18: 18,
  20: 28, 21: 21, 22: 20, 23: 21, 24: 22, 25: 24, 26: 29, 27: 38, 28: 38, 29: 39,
  30: 45, 31: 41, 32: 44, 33: 45, 34: 47, 35: 49,
  40: 61, 41: 61, 42: 65, 43: 61, 44: 65, 45: 71, 46: 75, 47: 66, 48: 67,
  50: 51, 51: 51, 52: 53, 53: 55, 54: 56, 55: 57, 56: 57, 57: 58, 58: 59,
  60: 61, 61: 61, 62: 63, 63: 65, 64: 66, 65: 67, 66: 67, 67: 68, 68: 69,
  70: 71, 71: 71, 72: 73, 73: 75, 74: 79, 75: 79, 76: 79, 77: 77, 78: 76,
  80: 80, 81: 80, 82: 81, 83: 81, 84: 82, 85: 85, 86: 86, 87: 86, 89: 90,
  90: 17, 91: 17, 92: 95, 93: 96, 94: 17, 95: 97, 96: 99, 99: 19,
};
