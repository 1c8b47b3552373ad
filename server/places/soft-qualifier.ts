/**
 * Soft qualifiers: the parts of a query after a comma (or its trailing words) that name no known
 * country or admin-1 area ("Bekasi, Jawa Barat" before Natural Earth's names were known, "Preston,
 * Lancs", a typo such as "Springfield, Ilinois"). They never filter: a place scores one point per
 * word of them that resembles a word of the names of its admin-1 area or country, and search.ts
 * ranks the places with more points first.
 *
 * A query word (folded, 3+ code points; the first MAX_WORDS of all soft parts) resembles a name word
 * when they are equal, when one begins the other and the shorter has 4+ code points ("lanc" and
 * "lancashire"), or when both have 5+ code points, share their first MIN_PREFIX and are one edit
 * apart (transpositions count 1: "ilinois"). Name words are the index's key table of qualifier
 * words (built by the pipeline); a query word visits only the words that share its first
 * MIN_PREFIX code points (at most MAX_SCAN of them, in byte order: one read of their key blocks,
 * one of the areas of each resembling word): the cost is linear in the text's length.
 */
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { KEYS_PER_BLOCK, prefixEnd } from "../../datasets/places/key-table.ts";
import { BoundedEditDistance, codePoints } from "./edit-distance.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Query words beyond these are ignored (a qualifier is a few words; this bounds the work). */
const MAX_WORDS = 8;
const MIN_WORD = 3;
/** Code points a query word and a name word must share at the start to resemble, unless equal. */
const MIN_PREFIX = 4;
/** Name words visited per query word at most. */
const MAX_SCAN = 256;

export class SoftQualifier {
  /** Per admin-1 / country index: bit w set when query word w resembles one of its names. */
  private readonly admin1Bits: Uint8Array;
  private readonly countryBits: Uint8Array;
  private readonly touchedAdmin1: number[] = [];
  private readonly touchedCountries: number[] = [];
  private readonly distance = new BoundedEditDistance();
  /** Whether the current query has soft words. */
  active = false;

  constructor(private readonly index: PlacesIndex, admin1Count: number, countryCount: number) {
    this.admin1Bits = new Uint8Array(admin1Count);
    this.countryBits = new Uint8Array(countryCount);
  }

  /** Takes the folded soft parts of a query; returns whether any of their words can resemble. */
  resolve(folded: readonly string[]): boolean {
    let w = 0;
    for (const part of folded) {
      for (const word of part.split(" ")) {
        if (w === MAX_WORDS) break;
        if ([...word.slice(0, MIN_WORD)].length < MIN_WORD) continue;
        this.markWord(word, 1 << w++);
      }
    }
    this.active = w > 0;
    return this.active;
  }

  /** The number of soft words that resemble the names of this admin-1 area (or none: 0xFFFF) or country. */
  score(country: number, admin1: number): number {
    let bits = (this.countryBits[country] ?? 0) | (this.admin1Bits[admin1] ?? 0);
    let n = 0;
    for (; bits !== 0; bits &= bits - 1) n++;
    return n;
  }

  reset(): void {
    for (const a of this.touchedAdmin1) this.admin1Bits[a] = 0;
    for (const c of this.touchedCountries) this.countryBits[c] = 0;
    this.touchedAdmin1.length = 0;
    this.touchedCountries.length = 0;
    this.active = false;
  }

  private markWord(word: string, bit: number): void {
    const cps = [...word.slice(0, 2 * MIN_PREFIX)];
    const prefix = cps.length < MIN_PREFIX ? word : cps.slice(0, MIN_PREFIX).join("");
    const bytes = encoder.encode(prefix);
    const run = this.index.words.range(bytes, prefixEnd(bytes), Math.ceil(MAX_SCAN / KEYS_PER_BLOCK) + 1);
    for (let i = 0; i < run.count && i < MAX_SCAN; i++) {
      if (!this.resembles(word, decoder.decode(run.bytes.subarray(run.keyStart[i]!, run.keyEnd[i]!)))) continue;
      const entry = this.index.qualifierAreas(run.value0[i]!, run.value1[i]!);
      for (const a of entry.admin1) {
        if (this.admin1Bits[a] === 0) this.touchedAdmin1.push(a);
        this.admin1Bits[a]! |= bit;
      }
      for (const c of entry.countries) {
        if (this.countryBits[c] === 0) this.touchedCountries.push(c);
        this.countryBits[c]! |= bit;
      }
    }
  }

  /** Both share the first MIN_PREFIX code points (or `a` is shorter and equal to that prefix). */
  private resembles(a: string, b: string): boolean {
    if (a === b) return true;
    const shorter = a.length < b.length ? a : b;
    const longer = shorter === a ? b : a;
    if (shorter.length >= MIN_PREFIX && longer.startsWith(shorter)) return true;
    if (Math.abs(a.length - b.length) > 1 || shorter.length < 5) return false;
    const ac = codePoints(a);
    const bc = codePoints(b);
    return this.distance.within(ac, ac.length, bc, bc.length, 1);
  }
}
