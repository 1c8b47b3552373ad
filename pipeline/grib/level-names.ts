/**
 * Level descriptions in wgrib2's wording ("2 m above ground", "500 mb", "entire atmosphere
 * (considered as a single layer)"), from GRIB2 code table 4.5 (with NCEP's local entries 200-254).
 * GRIB1 levels (NCEP table 3) are first mapped to their GRIB2 equivalents.
 */

/** C printf "%g": 6 significant digits, exponent form below 1e-4 (wgrib2 prints "PV=2e-06"). */
export function formatG(x: number): string {
  if (x === 0) return "0";
  const exponent = Math.floor(Math.log10(Math.abs(x)));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, exp] = x.toExponential(5).split("e") as [string, string];
    const m = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
    const e = Number(exp);
    return `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  return String(Number(x.toPrecision(6)));
}

/** Surfaces without a value. */
const FIXED: Readonly<Record<number, string>> = {
  1: "surface",
  2: "cloud base",
  3: "cloud top",
  4: "0C isotherm",
  5: "level of adiabatic condensation from sfc",
  6: "max wind",
  7: "tropopause",
  8: "top of atmosphere",
  9: "sea bottom",
  10: "entire atmosphere",
  11: "cumulonimbus base",
  12: "cumulonimbus top",
  101: "mean sea level",
  200: "entire atmosphere (considered as a single layer)",
  201: "entire ocean (considered as a single layer)",
  204: "highest tropospheric freezing level",
  206: "grid scale cloud bottom level",
  207: "grid scale cloud top level",
  209: "boundary layer cloud bottom level",
  210: "boundary layer cloud top level",
  211: "boundary layer cloud layer",
  212: "low cloud bottom level",
  213: "low cloud top level",
  214: "low cloud layer",
  215: "cloud ceiling",
  220: "planetary boundary layer",
  221: "layer between two hybrid levels",
  222: "middle cloud bottom level",
  223: "middle cloud top level",
  224: "middle cloud layer",
  232: "high cloud bottom level",
  233: "high cloud top level",
  234: "high cloud layer",
  235: "ocean isotherm level",
  242: "convective cloud bottom level",
  243: "convective cloud top level",
  244: "convective cloud layer",
  245: "lowest level of the wet bulb zero",
  246: "max equivalent potential temperature level",
  247: "equilibrium level",
  248: "shallow convective cloud bottom level",
  249: "shallow convective cloud top level",
  251: "deep convective cloud bottom level",
  252: "deep convective cloud top level",
  253: "lowest bottom level of supercooled liquid water layer",
  254: "highest top level of supercooled liquid water layer",
};

/** Surfaces with a value: [single level, layer] formats; the value is converted first. */
interface Valued {
  convert: (v: number) => number;
  single: (v: string) => string;
  layer: (a: string, b: string) => string;
}

const pa2mb = (v: number): number => v / 100;
const same = (v: number): number => v;

const VALUED: Readonly<Record<number, Valued>> = {
  20: { convert: same, single: (v) => `${v} K level`, layer: (a, b) => `${a}-${b} K layer` },
  100: { convert: pa2mb, single: (v) => `${v} mb`, layer: (a, b) => `${a}-${b} mb` },
  102: { convert: same, single: (v) => `${v} m above mean sea level`, layer: (a, b) => `${a}-${b} m above mean sea level` },
  103: { convert: same, single: (v) => `${v} m above ground`, layer: (a, b) => `${a}-${b} m above ground` },
  104: { convert: same, single: (v) => `${v} sigma level`, layer: (a, b) => `${a}-${b} sigma layer` },
  105: { convert: same, single: (v) => `${v} hybrid level`, layer: (a, b) => `${a}-${b} hybrid layer` },
  106: { convert: same, single: (v) => `${v} m below ground`, layer: (a, b) => `${a}-${b} m below ground` },
  107: { convert: same, single: (v) => `${v} K isentropic level`, layer: (a, b) => `${a}-${b} K isentropic layer` },
  108: { convert: pa2mb, single: (v) => `${v} mb above ground`, layer: (a, b) => `${a}-${b} mb above ground` },
  109: { convert: same, single: (v) => `PV=${v} (Km^2/kg/s) surface`, layer: (a, b) => `PV=${a}-${b} (Km^2/kg/s) layer` },
  111: { convert: same, single: (v) => `${v} eta level`, layer: (a, b) => `${a}-${b} eta layer` },
  160: { convert: same, single: (v) => `${v} m below sea level`, layer: (a, b) => `${a}-${b} m below sea level` },
};

function single(type: number, value: number): string {
  const fixed = FIXED[type];
  if (fixed !== undefined) return fixed;
  const valued = VALUED[type];
  if (valued) return valued.single(formatG(valued.convert(value)));
  return type === 255 ? "" : `level type ${type} value ${formatG(value)}`;
}

/** wgrib2-style description of a GRIB2 level or layer (code table 4.5 types and values). */
export function grib2LevelName(type: number, value: number, type2?: number, value2?: number): string {
  if (type2 === undefined || type2 === 255) return single(type, value) || "reserved";
  const valued = VALUED[type];
  if (type2 === type && valued) return valued.layer(formatG(valued.convert(value)), formatG(valued.convert(value2 ?? 0)));
  if (type2 === type && FIXED[type] !== undefined) return FIXED[type]!;
  return `${single(type, value)} - ${single(type2, value2 ?? 0)}`;
}

/** A GRIB1 level (NCEP table 3) as its GRIB2 type and values (SI units of code table 4.5). */
export interface Grib2Level {
  type: number;
  value: number;
  type2?: number;
  value2?: number;
}

/**
 * GRIB1 octets 10-12: the level type and its value(s). Layer types store two one-octet values
 * (top, bottom); single levels one two-octet value.
 */
export function grib1ToGrib2Level(type: number, hi: number, lo: number): Grib2Level {
  const v16 = hi * 256 + lo;
  const layer = (t: number, top: number, bottom: number): Grib2Level => ({ type: t, value: top, type2: t, value2: bottom });
  switch (type) {
    case 20: return { type: 20, value: v16 / 100 };
    case 100: return { type: 100, value: v16 * 100 };
    case 101: return layer(100, hi * 1000, lo * 1000);
    case 102: return { type: 101, value: 0 };
    case 103: return { type: 102, value: v16 };
    case 104: return layer(102, hi * 100, lo * 100);
    case 105: return { type: 103, value: v16 };
    case 106: return layer(103, hi * 100, lo * 100);
    case 107: return { type: 104, value: v16 / 10000 };
    case 108: return layer(104, hi / 100, lo / 100);
    case 109: return { type: 105, value: v16 };
    case 110: return layer(105, hi, lo);
    case 111: return { type: 106, value: v16 / 100 };
    case 112: return layer(106, hi / 100, lo / 100);
    case 113: return { type: 107, value: v16 };
    case 114: return layer(107, 475 - hi, 475 - lo);
    case 115: return { type: 108, value: v16 * 100 };
    case 116: return layer(108, hi * 100, lo * 100);
    case 117: return { type: 109, value: Number((v16 * 1e-9).toPrecision(12)) };
    case 119: return { type: 111, value: v16 / 10000 };
    case 121: return layer(100, (1100 - hi) * 100, (1100 - lo) * 100);
    case 125: return { type: 103, value: v16 / 100 };
    case 128: return layer(104, 1.1 - hi / 1000, 1.1 - lo / 1000);
    case 141: return layer(100, hi * 1000, (1100 - lo) * 100);
    case 160: return { type: 160, value: v16 };
    default: return { type, value: FIXED[type] !== undefined ? 0 : v16 };
  }
}
