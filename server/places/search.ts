/**
 * Forward geocoding over the in-memory places index.
 *
 * Matching (on folded text, datasets/places/fold.ts): a place matches when one of its names
 * equals the query (exact), starts with it (prefix), or is a typo key within the allowed edits
 * (fuzzy: 1 edit for 4-7 code points, 2 from 8; transpositions count 1): main and ASCII names, and
 * the Latin-script alternate names of the most important places (pipeline/places/database.ts).
 * Historic, colloquial and code names (weak) match exactly only.
 * Qualifiers: in "name, q1, q2" a part that names a country or admin-1 area (ISO2/ISO3, country
 * names and forms, admin-1 names and codes; two parts may form one: "Korea, South") restricts to
 * its places; any other part is soft (soft-qualifier.ts): places whose areas' names resemble it
 * come first, nothing is filtered out. Known qualifiers that leave nothing become soft, so a
 * qualifier never empties an answer. Without a comma, when the whole text matches nothing, its last
 * words are tried as a known, then a soft qualifier ("Paris France", "Bekasi Jawa Barat").
 * Order: by score, ties by rank (server/places/ranking.ts): match kind (own name, alternate name,
 * prefix, typo) and importance (population, capital/seat, feature) in one number; weak matches
 * after the strong ones when the text is a name, beyond the best one otherwise; a total order, so
 * offset paging never repeats or skips. A final separator or an apostrophe of the text is literal
 * (server/places/literal.ts). `total` counts every matching place.
 */
import { allowedEdits, codePointLength, foldName } from "../../datasets/places/fold.ts";
import { POSTING_SHIFT, PRIMARY_BIT, WEAK_BIT, type QualifierEntry } from "../../datasets/places/index-format.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { featureMalus, populationScore, seatBonus } from "../../datasets/places/importance.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";
import { FuzzyMatcher } from "./fuzzy.ts";
import { foldKeepingApostrophes, literalOf, type LiteralQuery } from "./literal.ts";
import { MatchPenalty, sharedAlternatePenalty } from "./ranking.ts";
import { SoftQualifier } from "./soft-qualifier.ts";

/** What a searcher precomputes from its index (built as work that yields). */
interface SearchParts {
  fuzzy: FuzzyMatcher;
  baseScore: Float32Array;
  /** Place -> its name folded keeping apostrophes, for the names where that differs. */
  apostropheFold: Map<number, string>;
}

export interface SearchPage {
  total: number;
  /** Place indexes of the requested page, in result order. */
  places: number[];
}

interface ParsedQuery {
  key: string;
  /** Known qualifiers: each must hold. */
  qualifiers: QualifierEntry[];
  /** Their folded texts (to be softened when they leave nothing). */
  hardTexts: string[];
  /** Folded parts that name no known area: a ranking signal (soft-qualifier.ts). */
  soft: string[];
  /** A final separator or apostrophes of the name part (server/places/literal.ts). */
  literal?: LiteralQuery | undefined;
}

const encoder = new TextEncoder();
/** Subtracted from the score of demoted weak matches: more than any score spread (orders of magnitude of population). */
const WEAK_TIER = 1000;
/** Added per soft qualifier word a place's areas resemble: above the weak tier, so they come first. */
const SOFT_TIER = 10 * WEAK_TIER;
/** Comma-separated parts one qualifier may span ("Korea, South"; "Congo, Democratic Republic of the"). */
const MAX_SPAN = 2;
/** Known qualifiers that filter at most; further ones are soft. */
const MAX_FILTERS = 4;
/** Bytes a prefix needs before an alternate name it begins counts as a strong match. */
const MIN_ALTERNATE_PREFIX = 4;
/** Trailing words tried as a qualifier of a text without a comma that matches nothing. */
const MAX_TRAILING_WORDS = 3;

export class PlaceSearch {
  /** Best score of each touched place of the current query (NaN: not touched). */
  private readonly scoreOf: Float64Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  /**
   * Weak marks of the current query (a typo, an alternate-name prefix, a non-literal prefix): the
   * place and the score given. A place's best match is weak when its score is still that score;
   * only these few entries are visited, never every touched place.
   */
  private weakPlace = new Uint32Array(1024);
  private weakScore = new Float64Array(1024);
  private weakCount = 0;
  /** Whether the current query equals a (not historic, colloquial or code) name of a place the qualifiers let through. */
  private exactMatched = false;
  /** Per feature index: the capital/seat bonus (datasets/places/importance.ts). */
  private readonly featureSeat: Float64Array;
  /** Per place: log10(population + 1) - feature malus, computed once (4 bytes a place). */
  private readonly baseScore: Float32Array;
  private readonly fuzzy: FuzzyMatcher;
  /** Per place whose GeoNames name has an apostrophe: the name folded with them kept (literal.ts). */
  private readonly apostropheFold: Map<number, string>;
  private readonly qualifierByKey: Map<string, QualifierEntry>;
  private readonly soft: SoftQualifier;
  /** Per qualifier of the current query: membership of each country and admin-1 index. */
  private filter: { countries: Uint8Array; admin1: Uint8Array }[] = [];

  /** `parts` are what `build` computes (computed here when not given). */
  constructor(private readonly index: PlacesIndex, parts: SearchParts = finishNow(PlaceSearch.parts(index))) {
    this.scoreOf = new Float64Array(index.placeCount).fill(Number.NaN);
    this.touched = new Uint32Array(index.placeCount);
    this.fuzzy = parts.fuzzy;
    this.qualifierByKey = new Map(index.tables.qualifiers.map((q) => [q.key, q]));
    this.soft = new SoftQualifier(index.tables.qualifierWords, index.tables.admin1.length, index.tables.countries.length);
    this.featureSeat = Float64Array.from(index.tables.features, (f) => seatBonus(f.featureCode));
    this.baseScore = parts.baseScore;
    this.apostropheFold = parts.apostropheFold;
  }

  /** The searcher as work that yields between blocks of places (datasets/common/work.ts). */
  static *build(index: PlacesIndex): Work<PlaceSearch> {
    return new PlaceSearch(index, yield* PlaceSearch.parts(index));
  }

  private static *parts(index: PlacesIndex): Work<SearchParts> {
    const fuzzy = yield* FuzzyMatcher.build(index);
    const malus = Float64Array.from(index.tables.features, (f) => featureMalus(f.featureClass, f.featureCode));
    const baseScore = new Float32Array(index.placeCount);
    for (let p = 0; p < index.placeCount; p++) {
      if ((p & 0xffff) === 0xffff) yield;
      baseScore[p] = populationScore(index.population[p]!) - (malus[index.feature[p]!] ?? 0);
    }
    // Names with a byte that may begin an apostrophe (' ` or the lead byte of ’ ‘ ʼ ʻ ´), a few
    // percent of them: folded once here instead of per query.
    const apostropheFold = new Map<number, string>();
    const { nameBytes, nameOffsets } = index;
    for (let p = 0; p < index.placeCount; p++) {
      if ((p & 0xffff) === 0xffff) yield;
      for (let i = nameOffsets[p]!; i < nameOffsets[p + 1]!; i++) {
        const b = nameBytes[i]!;
        if (b === 0x27 || b === 0x60 || b === 0xe2 || b === 0xca || b === 0xc2) {
          const folded = foldKeepingApostrophes(index.name(p));
          if (folded !== foldName(index.name(p))) apostropheFold.set(p, folded);
          break;
        }
      }
    }
    return { fuzzy, baseScore, apostropheFold };
  }

  /** log10(population + 1) - feature malus (population clamped to uint32, as stored). */
  private base(place: number): number {
    return this.baseScore[place]!;
  }

  /**
   * Splits "name, qualifier, ..." and resolves the qualifiers: a known one filters, an unknown one
   * is soft (see the module comment). Two or three parts may form one qualifier ("Korea, South").
   */
  parse(text: string): ParsedQuery {
    const parts = text.split(",");
    const name = foldName(parts[0]!);
    if (parts.length === 1 || name === "") return { key: foldName(text), qualifiers: [], hardTexts: [], soft: [], literal: literalOf(text) };
    const qualifiers: QualifierEntry[] = [];
    const hardTexts: string[] = [];
    const soft: string[] = [];
    const folded = parts.map((part, i) => (i === 0 ? name : foldName(part)));
    for (let i = 1; i < folded.length; ) {
      if (folded[i] === "") {
        i++;
        continue;
      }
      let span = 0;
      for (let n = Math.min(MAX_SPAN, folded.length - i); n >= 1 && span === 0; n--) {
        const q = this.qualifierByKey.get(n === 1 ? folded[i]! : folded.slice(i, i + n).join(" "));
        if (q) {
          span = n;
          // A repeated qualifier adds nothing; beyond MAX_FILTERS distinct ones (which leave nothing
          // anyway) they count as soft: a filter costs a pass over every match.
          if (qualifiers.includes(q)) continue;
          if (qualifiers.length < MAX_FILTERS) {
            qualifiers.push(q);
            hardTexts.push(q.key);
          } else soft.push(q.key);
        }
      }
      if (span === 0) soft.push(folded[i]!);
      i += Math.max(1, span);
    }
    return { key: name, qualifiers, hardTexts, soft, literal: literalOf(parts[0]!) };
  }

  search(text: string, limit: number, offset: number): SearchPage {
    const parsed = this.parse(text);
    const page = this.run(parsed, limit, offset);
    if (page.total > 0) return page;
    // Known qualifiers that leave nothing become soft: a qualifier never empties an answer.
    if (parsed.qualifiers.length > 0) return this.run({ ...parsed, qualifiers: [], hardTexts: [], soft: [...parsed.hardTexts, ...parsed.soft] }, limit, offset);
    if (text.includes(",")) return page;
    // "Paris France", "Portland Oregon", "Bekasi Jawa Barat": when the whole text matches nothing,
    // its last words are tried as a qualifier (longest name first), known ones before soft ones.
    const words = parsed.key.split(" ");
    const first = Math.max(1, words.length - MAX_TRAILING_WORDS);
    for (let k = words.length - 1; k >= first; k--) {
      const q = this.qualifierByKey.get(words.slice(k).join(" "));
      if (!q) continue;
      const retry = this.run({ key: words.slice(0, k).join(" "), qualifiers: [q], hardTexts: [q.key], soft: [] }, limit, offset);
      if (retry.total > 0) return retry;
    }
    for (let k = words.length - 1; k >= first; k--) {
      const retry = this.run({ key: words.slice(0, k).join(" "), qualifiers: [], hardTexts: [], soft: [words.slice(k).join(" ")] }, limit, offset);
      if (retry.total > 0) return retry;
    }
    return page;
  }

  private run({ key, qualifiers, soft, literal }: ParsedQuery, limit: number, offset: number): SearchPage {
    if (key === "") return { total: 0, places: [] };
    const { countries, admin1 } = this.index.tables;
    this.filter = qualifiers.map((q) => {
      const mask = { countries: new Uint8Array(countries.length), admin1: new Uint8Array(admin1.length) };
      for (const c of q.countries) mask.countries[c] = 1;
      for (const a of q.admin1) mask.admin1[a] = 1;
      return mask;
    });
    try {
      this.collect(key, literal);
      this.demoteWeak();
      if (soft.length > 0 && this.soft.resolve(soft)) this.boostSoft();
      return this.page(limit, offset);
    } finally {
      this.reset();
      this.soft.reset();
    }
  }

  private passes(place: number): boolean {
    const ix = this.index;
    const c = ix.country[place]!;
    const a = ix.admin1[place]!;
    for (const q of this.filter) {
      // Out-of-range reads (the 0xFFFF "none") are undefined, i.e. not a member.
      if (q.countries[c] !== 1 && q.admin1[a] !== 1) return false;
    }
    return true;
  }

  private mark(place: number, score: number, weak: boolean): void {
    const current = this.scoreOf[place]!;
    if (current >= score) return;
    if (current !== current) {
      // NaN: first match of this place.
      if (this.filter.length > 0 && !this.passes(place)) return;
      this.touched[this.touchedCount++] = place;
    }
    this.scoreOf[place] = score;
    if (weak) {
      if (this.weakCount === this.weakPlace.length) {
        const places = new Uint32Array(2 * this.weakCount);
        places.set(this.weakPlace);
        this.weakPlace = places;
        const scores = new Float64Array(2 * this.weakCount);
        scores.set(this.weakScore);
        this.weakScore = scores;
      }
      this.weakPlace[this.weakCount] = place;
      this.weakScore[this.weakCount++] = score;
    }
  }

  /** Places whose admin-1 area or country resembles the soft qualifiers come first, the more words the earlier. */
  private boostSoft(): void {
    const { country, admin1 } = this.index;
    for (let t = 0; t < this.touchedCount; t++) {
      const p = this.touched[t]!;
      const words = this.soft.score(country[p]!, admin1[p]!);
      if (words > 0) this.scoreOf[p] = this.scoreOf[p]! + SOFT_TIER * words;
    }
  }

  /**
   * When both kinds matched, the best weak match keeps its score and the other weak matches follow
   * every strong one: a typo or an alternate-name prefix of a much bigger place may come first,
   * but weak matches never crowd out the places whose names the text is or begins.
   */
  private demoteWeak(): void {
    const { scoreOf, weakPlace, weakScore } = this;
    let weakPlaces = 0;
    let best = -1;
    for (let w = 0; w < this.weakCount; w++) {
      const p = weakPlace[w]!;
      if (scoreOf[p] !== weakScore[w]) continue;
      weakPlaces++;
      if (best < 0 || scoreOf[p]! > scoreOf[best]! || (scoreOf[p] === scoreOf[best] && p < best)) best = p;
    }
    if (weakPlaces === 0 || weakPlaces === this.touchedCount) return;
    // Exact before near: when the text is a name, no weak match precedes the strong ones.
    if (this.exactMatched) best = -1;
    for (let w = 0; w < this.weakCount; w++) {
      const p = weakPlace[w]!;
      if (p !== best && scoreOf[p] === weakScore[w]) scoreOf[p] = scoreOf[p]! - WEAK_TIER;
    }
  }

  private markExact(k: number, apostrophes: string | undefined): void {
    const ix = this.index;
    const start = ix.postingOffsets[k]!;
    const end = ix.postingOffsets[k + 1]!;
    // An alternate name that is also some place's own name is ambiguous: it counts less, the more
    // so the more important the first place so called (postings come in rank order).
    let shared = 0;
    for (let p = start; p < end; p++) {
      const posting = ix.postings[p]!;
      if ((posting & PRIMARY_BIT) !== 0) {
        const owner = posting >>> POSTING_SHIFT;
        const seat = this.featureSeat[ix.feature[owner]!] ?? 0;
        shared = sharedAlternatePenalty(this.base(owner) + seat, seat);
        break;
      }
    }
    // Postings come in rank order: the first place called so (that the qualifiers let through) is
    // the one the name means; its namesakes count as much as a prefix would.
    let namesake = false;
    for (let p = start; p < end; p++) {
      const posting = ix.postings[p]!;
      const place = posting >>> POSTING_SHIFT;
      let score: number;
      if ((posting & PRIMARY_BIT) === 0) score = this.base(place) - ((posting & WEAK_BIT) !== 0 ? MatchPenalty.weak : MatchPenalty.alternate) - shared;
      else if (apostrophes !== undefined && !this.keepsApostrophes(place, apostrophes)) {
        this.mark(place, this.base(place) - MatchPenalty.unliteral, true);
        continue;
      } else if (namesake) score = this.base(place) - MatchPenalty.namesake;
      else {
        if (this.filter.length > 0 && !this.passes(place)) continue;
        score = this.base(place) + (this.featureSeat[ix.feature[place]!] ?? 0) - MatchPenalty.own;
        namesake = true;
      }
      this.mark(place, score, false);
      if ((posting & WEAK_BIT) === 0 && this.scoreOf[place] === score) this.exactMatched = true;
    }
  }

  /** Whether the place's GeoNames name, folded with its apostrophes kept, starts with `literal`. */
  private keepsApostrophes(place: number, literal: string): boolean {
    return this.apostropheFold.get(place)?.startsWith(literal) ?? false;
  }

  /**
   * A typo of a key counts for the places whose main, ASCII or alternate name it is (historic,
   * colloquial and code names excepted), at the same penalty: the pipeline admits to typo matching
   * the main names and the Latin-script alternate names of the most important places.
   */
  private markTypoPostings(k: number, edits: number, sameFirst: boolean, query: Uint8Array): void {
    const ix = this.index;
    const oneEdit = isSwap(ix.keyBytes, ix.keyOffsets[k]!, ix.keyOffsets[k + 1]!, query) ? MatchPenalty.transposition : MatchPenalty.typo1;
    const penalty = (edits <= 1 ? oneEdit : MatchPenalty.typo2) + (sameFirst ? 0 : MatchPenalty.typoFirstLetter);
    const end = ix.postingOffsets[k + 1]!;
    for (let p = ix.postingOffsets[k]!; p < end; p++) {
      const posting = ix.postings[p]!;
      if ((posting & WEAK_BIT) === 0) {
        const place = posting >>> POSTING_SHIFT;
        this.mark(place, this.base(place) - penalty - ((posting & PRIMARY_BIT) === 0 ? MatchPenalty.typoAlternate : 0), true);
      }
    }
  }

  private collect(key: string, literal: LiteralQuery | undefined): void {
    const ix = this.index;
    const bytes = encoder.encode(key);
    let k = ix.lowerBound(bytes);
    if (k < ix.keyCount && ix.keyHasPrefix(k, bytes) && ix.keyOffsets[k + 1]! - ix.keyOffsets[k]! === bytes.length) {
      this.markExact(k, literal?.apostrophes);
      k++;
    }
    // Keys starting with the query are contiguous and end before query + 0xFF (a byte UTF-8
    // never uses); their postings are one contiguous slice.
    const upper = new Uint8Array(bytes.length + 1);
    upper.set(bytes);
    upper[bytes.length] = 0xff;
    const end = ix.lowerBound(upper);
    // The typo keys (ascending key indexes) are walked beside the prefix keys: an alternate name
    // that takes part in typo matching (an exonym or own-language name of an important place, see
    // pipeline/places/database.ts) is a strong prefix match, other alternate names a weak one.
    const { fuzzyKeys } = ix;
    // Three letters begin too many alternate names: those prefixes stay weak.
    let f = bytes.length >= MIN_ALTERNATE_PREFIX ? lowerBoundU32(fuzzyKeys, k) : fuzzyKeys.length;
    for (; k < end; k++) {
      while (f < fuzzyKeys.length && fuzzyKeys[f]! < k) f++;
      const typoKey = fuzzyKeys[f] === k;
      // A final separator: the key's word must end where the query does (keys are folded, so a space).
      const wordEnds = literal === undefined || !literal.wordEnd || ix.keyBytes[ix.keyOffsets[k]! + bytes.length] === 0x20;
      const postingsEnd = ix.postingOffsets[k + 1]!;
      for (let p = ix.postingOffsets[k]!; p < postingsEnd; p++) {
        const posting = ix.postings[p]!;
        if ((posting & WEAK_BIT) !== 0) continue;
        const place = posting >>> POSTING_SHIFT;
        if ((posting & PRIMARY_BIT) === 0) {
          if (typoKey) this.mark(place, this.base(place) - MatchPenalty.knownAlternatePrefix, false);
          else this.mark(place, this.base(place) - MatchPenalty.alternatePrefix, true);
        }
        else if (wordEnds && (literal?.apostrophes === undefined || this.keepsApostrophes(place, literal.apostrophes))) {
          this.mark(place, this.base(place) - MatchPenalty.ownPrefix, false);
        } else this.mark(place, this.base(place) - MatchPenalty.unliteral, true);
      }
    }
    const length = codePointLength(key);
    const edits = allowedEdits(length);
    if (edits > 0) this.fuzzy.match(key, length, edits, (fk, d, sameFirst) => this.markTypoPostings(fk, d, sameFirst, bytes));
  }

  /** The page [offset, offset + limit) of the matches by score (descending), ties by rank. */
  private page(limit: number, offset: number): SearchPage {
    const total = this.touchedCount;
    const need = Math.min(total, offset + limit);
    if (offset >= need) return { total, places: [] };
    const { scoreOf, touched } = this;
    const before = (a: number, b: number): boolean => scoreOf[a]! > scoreOf[b]! || (scoreOf[a] === scoreOf[b] && a < b);
    let best: Uint32Array;
    if (need <= 64 && need * 8 < total) {
      // Few wanted from many: keep the `need` best in a sorted buffer (one pass).
      best = new Uint32Array(need);
      let filled = 0;
      for (let t = 0; t < total; t++) {
        const p = touched[t]!;
        if (filled === need && !before(p, best[need - 1]!)) continue;
        let i = filled < need ? filled++ : need - 1;
        while (i > 0 && before(p, best[i - 1]!)) {
          best[i] = best[i - 1]!;
          i--;
        }
        best[i] = p;
      }
    } else {
      best = touched.slice(0, total);
      best.sort((a, b) => scoreOf[b]! - scoreOf[a]! || a - b);
    }
    return { total, places: Array.from(best.subarray(offset, need)) };
  }

  private reset(): void {
    for (let t = 0; t < this.touchedCount; t++) this.scoreOf[this.touched[t]!] = Number.NaN;
    this.weakCount = 0;
    this.touchedCount = 0;
    this.exactMatched = false;
    this.filter = [];
  }
}

/** First index of the ascending array whose value is >= `value`. */
function lowerBoundU32(a: Uint32Array, value: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether key bytes [start, end) are `query` with two neighbouring bytes swapped, and nothing else
 * changed. Bytes, not letters: folded keys are nearly all ASCII, and a swap of two multi-byte
 * letters simply counts as any other edit.
 */
export function isSwap(keys: Uint8Array, start: number, end: number, query: Uint8Array): boolean {
  if (end - start !== query.length) return false;
  let i = 0;
  while (i < query.length && keys[start + i] === query[i]) i++;
  if (i + 1 >= query.length || keys[start + i] !== query[i + 1] || keys[start + i + 1] !== query[i]) return false;
  for (let j = i + 2; j < query.length; j++) if (keys[start + j] !== query[j]) return false;
  return true;
}
