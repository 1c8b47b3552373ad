/**
 * Query classes of the relevance bench, each with GeoNames' own rows as the truth:
 * - exact: the GeoNames name. Truth: the most populous place whose own (GeoNames or ASCII) name
 *   folds to the query, so an alternate name of a bigger place is a hijack.
 * - qualified: "name, country" (the English country name of countryInfo). Truth: the most
 *   populous place of that name in that country.
 * - typo: one seeded edit (substitution, deletion, insertion or adjacent transposition) of the
 *   folded ASCII name, from a draw seeded by the place's id; typos that are a name (own or
 *   alternate) of another place are skipped. Truth: the place.
 * - prefix3/4/5: the first 3, 4, 5 characters of the GeoNames name (names longer than that), all of
 *   them: for "Cha" Chongqing, Chengdu... cannot all be in a top 5, so no order reaches 100 %; the
 *   population order of the places whose own name starts so is the yardstick (evaluate.ts).
 *   Truth: the place.
 * - native: an alternate name in the script of the place's country (Москва, 東京, القاهرة) whose
 *   most populous carrier is the place.
 */
import { mulberry32 } from "../../datasets/common/prng.ts";
import { foldName } from "../../datasets/places/fold.ts";
import type { GazetteerRow } from "./gazetteer.ts";

export type Kind = "exact" | "qualified" | "typo" | "prefix3" | "prefix4" | "prefix5" | "native";
export const KINDS: readonly Kind[] = ["exact", "qualified", "typo", "prefix3", "prefix4", "prefix5", "native"];

export interface Query {
  kind: Kind;
  q: string;
  /** GeoNames id of the place that is the right answer. */
  truth: number;
}

/** Lookups over the whole gazetteer that decide which queries are fair and what their truth is. */
export class Truth {
  /** Most populous place per folded own name. */
  readonly byOwnName = new Map<string, GazetteerRow>();
  private readonly byOwnNameInCountry = new Map<string, GazetteerRow>();
  /** Most populous carrier of every folded name, own or alternate. */
  readonly byAnyName = new Map<string, GazetteerRow>();
  readonly byId = new Map<number, GazetteerRow>();

  constructor(rows: readonly GazetteerRow[]) {
    for (const r of rows) {
      this.byId.set(r.id, r);
      for (const n of r.own) {
        if (!this.byOwnName.has(n)) this.byOwnName.set(n, r);
        if (!this.byOwnNameInCountry.has(`${n}|${r.cc}`)) this.byOwnNameInCountry.set(`${n}|${r.cc}`, r);
      }
      for (const n of [r.name, r.ascii, ...r.alternates]) {
        const k = foldName(n);
        if (!this.byAnyName.has(k)) this.byAnyName.set(k, r);
      }
    }
  }

  ownInCountry(folded: string, cc: string): GazetteerRow | undefined {
    return this.byOwnNameInCountry.get(`${folded}|${cc}`);
  }
}

// Scripts of a country's own language(s), for the native-script class.
const SCRIPT_OF: Record<string, RegExp> = {
  Han: /\p{Script=Han}/u, Hangul: /\p{Script=Hangul}/u, Cyrillic: /\p{Script=Cyrillic}/u, Greek: /\p{Script=Greek}/u,
  Hebrew: /\p{Script=Hebrew}/u, Arabic: /\p{Script=Arabic}/u, Thai: /\p{Script=Thai}/u, Devanagari: /\p{Script=Devanagari}/u,
  Bengali: /\p{Script=Bengali}/u, Tamil: /\p{Script=Tamil}/u, Telugu: /\p{Script=Telugu}/u, Kannada: /\p{Script=Kannada}/u,
  Malayalam: /\p{Script=Malayalam}/u, Gujarati: /\p{Script=Gujarati}/u, Gurmukhi: /\p{Script=Gurmukhi}/u, Myanmar: /\p{Script=Myanmar}/u,
  Khmer: /\p{Script=Khmer}/u, Lao: /\p{Script=Lao}/u, Georgian: /\p{Script=Georgian}/u, Armenian: /\p{Script=Armenian}/u,
  Ethiopic: /\p{Script=Ethiopic}/u, Sinhala: /\p{Script=Sinhala}/u, Kana: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
};
const COUNTRY_SCRIPTS: Record<string, string[]> = {
  CN: ["Han"], TW: ["Han"], HK: ["Han"], MO: ["Han"], JP: ["Kana"], KR: ["Hangul"], KP: ["Hangul"],
  RU: ["Cyrillic"], UA: ["Cyrillic"], BY: ["Cyrillic"], BG: ["Cyrillic"], RS: ["Cyrillic"], MK: ["Cyrillic"], KZ: ["Cyrillic"],
  KG: ["Cyrillic"], MN: ["Cyrillic"], TJ: ["Cyrillic"], GR: ["Greek"], CY: ["Greek"], IL: ["Hebrew"],
  SA: ["Arabic"], EG: ["Arabic"], IQ: ["Arabic"], SY: ["Arabic"], JO: ["Arabic"], LB: ["Arabic"], AE: ["Arabic"], KW: ["Arabic"],
  QA: ["Arabic"], BH: ["Arabic"], OM: ["Arabic"], YE: ["Arabic"], LY: ["Arabic"], TN: ["Arabic"], DZ: ["Arabic"], MA: ["Arabic"],
  SD: ["Arabic"], IR: ["Arabic"], AF: ["Arabic"], PK: ["Arabic"], PS: ["Arabic"], TH: ["Thai"], NP: ["Devanagari"],
  IN: ["Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam", "Gujarati", "Gurmukhi"], BD: ["Bengali"],
  LK: ["Sinhala", "Tamil"], MM: ["Myanmar"], KH: ["Khmer"], LA: ["Lao"], GE: ["Georgian"], AM: ["Armenian"], ET: ["Ethiopic"],
};

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One edit of `word` at a drawn position: substitution, deletion, insertion or adjacent transposition. */
export function typo(word: string, random: () => number): string {
  const cps = [...word];
  const i = Math.floor(random() * cps.length);
  const letter = LETTERS[Math.floor(random() * 26)]!;
  const op = Math.floor(random() * 4);
  if (op === 0) cps[i] = letter;
  else if (op === 1) cps.splice(i, 1);
  else if (op === 2) cps.splice(i, 0, letter);
  else if (i > 0) [cps[i - 1], cps[i]] = [cps[i]!, cps[i - 1]!];
  else [cps[0], cps[1]] = [cps[1]!, cps[0]!];
  return cps.join("");
}

/** The queries of every class for these places; draws are seeded by `seed` and each place's id. */
export function queriesFor(places: readonly GazetteerRow[], truth: Truth, countryName: ReadonlyMap<string, string>, seed: number): Query[] {
  const queries: Query[] = [];
  for (const r of places) {
    const random = mulberry32((seed ^ r.id) >>> 0);
    const own = foldName(r.name);
    if (truth.byOwnName.get(own) === r) queries.push({ kind: "exact", q: r.name, truth: r.id });
    const country = countryName.get(r.cc);
    if (country && truth.ownInCountry(own, r.cc) === r) queries.push({ kind: "qualified", q: `${r.name}, ${country}`, truth: r.id });
    const ascii = foldName(r.ascii);
    if ([...ascii].length >= 4) {
      let t = typo(ascii, random);
      for (let attempt = 0; attempt < 5 && (t === ascii || truth.byAnyName.has(foldName(t))); attempt++) t = typo(ascii, random);
      if (t !== ascii && !truth.byAnyName.has(foldName(t)) && [...foldName(t)].length >= 4) queries.push({ kind: "typo", q: t, truth: r.id });
    }
    const chars = [...r.name];
    for (const n of [3, 4, 5] as const) {
      const prefix = chars.slice(0, n).join("");
      if (chars.length > n) queries.push({ kind: `prefix${n}`, q: prefix, truth: r.id });
    }
    const scripts = (COUNTRY_SCRIPTS[r.cc] ?? []).map((s) => SCRIPT_OF[s]!);
    const native = r.alternates.filter((a) => scripts.some((re) => re.test(a)) && !/[a-z]/i.test(a) && truth.byAnyName.get(foldName(a)) === r);
    if (native.length > 0) queries.push({ kind: "native", q: native[Math.floor(random() * native.length)]!, truth: r.id });
  }
  return queries;
}
