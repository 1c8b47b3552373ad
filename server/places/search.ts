/**
 * Forward geocoding over the in-memory places index.
 *
 * Matching (on folded text, datasets/places/fold.ts): a place matches when one of its names
 * equals the query (exact), starts with it (prefix), or is a primary name within the allowed
 * edits (fuzzy: 1 edit for 4-7 code points, 2 from 8; transpositions count 1). Historic,
 * colloquial and code names (weak) match exactly only.
 * Qualifiers: "name, q1, q2" restricts to places whose country or admin-1 area each qualifier
 * names (ISO2/ISO3, country names in 23 languages, admin-1 name or code). When a part after a
 * comma is not a known qualifier, the whole text is searched as one name ("Washington, D.C."
 * also resolves: "dc" is the admin-1 code). Without a comma, when the whole text matches nothing,
 * its trailing words are tried as a qualifier ("Paris France", "Portland Oregon").
 * Order: by score, ties by rank (server/places/ranking.ts): match kind (own name, alternate name,
 * prefix, typo) and importance (population, capital/seat, feature) in one number, weak matches
 * beyond the best one after the strong ones; a total order, so offset paging never repeats or
 * skips. A final separator or an apostrophe of the text is literal (server/places/literal.ts).
 * `total` counts every matching place.
 */
import { allowedEdits, codePointLength, foldName } from "../../datasets/places/fold.ts";
import { POSTING_SHIFT, PRIMARY_BIT, WEAK_BIT, type QualifierEntry } from "../../datasets/places/index-format.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { featureMalus, populationScore, seatBonus } from "../../datasets/places/importance.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";
import { FuzzyMatcher } from "./fuzzy.ts";
import { foldKeepingApostrophes, literalOf, type LiteralQuery } from "./literal.ts";
import { MatchPenalty } from "./ranking.ts";

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
  qualifiers: QualifierEntry[];
  /** A final separator or apostrophes of the name part (server/places/literal.ts). */
  literal?: LiteralQuery | undefined;
}

const encoder = new TextEncoder();
/** Subtracted from the score of demoted weak matches: more than any score spread (orders of magnitude of population). */
const WEAK_TIER = 1000;

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
  /** Per feature index: the capital/seat bonus (datasets/places/importance.ts). */
  private readonly featureSeat: Float64Array;
  /** Per place: log10(population + 1) - feature malus, computed once (4 bytes a place). */
  private readonly baseScore: Float32Array;
  private readonly fuzzy: FuzzyMatcher;
  /** Per place whose GeoNames name has an apostrophe: the name folded with them kept (literal.ts). */
  private readonly apostropheFold: Map<number, string>;
  private readonly qualifierByKey: Map<string, QualifierEntry>;
  /** Per qualifier of the current query: membership of each country and admin-1 index. */
  private filter: { countries: Uint8Array; admin1: Uint8Array }[] = [];

  /** `parts` are what `build` computes (computed here when not given). */
  constructor(private readonly index: PlacesIndex, parts: SearchParts = finishNow(PlaceSearch.parts(index))) {
    this.scoreOf = new Float64Array(index.placeCount).fill(Number.NaN);
    this.touched = new Uint32Array(index.placeCount);
    this.fuzzy = parts.fuzzy;
    this.qualifierByKey = new Map(index.tables.qualifiers.map((q) => [q.key, q]));
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

  /** Splits "name, qualifier, ..." and resolves the qualifiers (see the module comment). */
  parse(text: string): ParsedQuery {
    const parts = text.split(",");
    if (parts.length > 1) {
      const qualifiers: QualifierEntry[] = [];
      let resolved = true;
      for (const part of parts.slice(1)) {
        const key = foldName(part);
        if (key === "") continue;
        const q = this.qualifierByKey.get(key);
        if (!q) {
          resolved = false;
          break;
        }
        qualifiers.push(q);
      }
      const key = foldName(parts[0]!);
      if (resolved && key !== "") return { key, qualifiers, literal: literalOf(parts[0]!) };
    }
    return { key: foldName(text), qualifiers: [], literal: literalOf(text) };
  }

  search(text: string, limit: number, offset: number): SearchPage {
    const parsed = this.parse(text);
    const page = this.run(parsed, limit, offset);
    if (page.total > 0 || text.includes(",")) return page;
    // "Paris France", "Portland Oregon": when the whole text matches nothing, try its trailing
    // words as a qualifier (longest name first).
    const words = parsed.key.split(" ");
    for (let k = words.length - 1; k >= 1; k--) {
      const q = this.qualifierByKey.get(words.slice(k).join(" "));
      if (!q) continue;
      const retry = this.run({ key: words.slice(0, k).join(" "), qualifiers: [q] }, limit, offset);
      if (retry.total > 0) return retry;
    }
    return page;
  }

  private run({ key, qualifiers, literal }: ParsedQuery, limit: number, offset: number): SearchPage {
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
      return this.page(limit, offset);
    } finally {
      this.reset();
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
    for (let w = 0; w < this.weakCount; w++) {
      const p = weakPlace[w]!;
      if (p !== best && scoreOf[p] === weakScore[w]) scoreOf[p] = scoreOf[p]! - WEAK_TIER;
    }
  }

  private markExact(k: number, apostrophes: string | undefined): void {
    const ix = this.index;
    const start = ix.postingOffsets[k]!;
    const end = ix.postingOffsets[k + 1]!;
    // An alternate name that is also some place's own name is ambiguous: it counts less.
    let shared = 0;
    for (let p = start; p < end; p++) {
      if ((ix.postings[p]! & PRIMARY_BIT) !== 0) {
        shared = MatchPenalty.sharedAlternate;
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
    }
  }

  /** Whether the place's GeoNames name, folded with its apostrophes kept, starts with `literal`. */
  private keepsApostrophes(place: number, literal: string): boolean {
    return this.apostropheFold.get(place)?.startsWith(literal) ?? false;
  }

  /** Typo matches count only for places whose main or ASCII name the key is. */
  private markPrimaryPostings(k: number, edits: number, sameFirst: boolean): void {
    const ix = this.index;
    const penalty = (edits <= 1 ? MatchPenalty.typo1 : MatchPenalty.typo2) + (sameFirst ? 0 : MatchPenalty.typoFirstLetter);
    const end = ix.postingOffsets[k + 1]!;
    for (let p = ix.postingOffsets[k]!; p < end; p++) {
      const posting = ix.postings[p]!;
      if ((posting & PRIMARY_BIT) !== 0) {
        const place = posting >>> POSTING_SHIFT;
        this.mark(place, this.base(place) - penalty, true);
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
    for (; k < end; k++) {
      // A final separator: the key's word must end where the query does (keys are folded, so a space).
      const wordEnds = literal === undefined || !literal.wordEnd || ix.keyBytes[ix.keyOffsets[k]! + bytes.length] === 0x20;
      const postingsEnd = ix.postingOffsets[k + 1]!;
      for (let p = ix.postingOffsets[k]!; p < postingsEnd; p++) {
        const posting = ix.postings[p]!;
        if ((posting & WEAK_BIT) !== 0) continue;
        const place = posting >>> POSTING_SHIFT;
        if ((posting & PRIMARY_BIT) === 0) this.mark(place, this.base(place) - MatchPenalty.alternatePrefix, true);
        else if (wordEnds && (literal?.apostrophes === undefined || this.keepsApostrophes(place, literal.apostrophes))) {
          this.mark(place, this.base(place) - MatchPenalty.ownPrefix, false);
        } else this.mark(place, this.base(place) - MatchPenalty.unliteral, true);
      }
    }
    const length = codePointLength(key);
    const edits = allowedEdits(length);
    if (edits > 0) this.fuzzy.match(key, length, edits, (fk, d, sameFirst) => this.markPrimaryPostings(fk, d, sameFirst));
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
    this.filter = [];
  }
}
