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
 * prefix, typo) and importance (population, capital/seat, feature) in one number; a total order,
 * so offset paging never repeats or skips. `total` counts every matching place.
 */
import { allowedEdits, codePointLength, foldName } from "../../datasets/places/fold.ts";
import { POSTING_SHIFT, PRIMARY_BIT, WEAK_BIT, type QualifierEntry } from "../../datasets/places/index-format.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { featureMalus, populationScore, seatBonus } from "../../datasets/places/importance.ts";
import { finishNow, type Work } from "../../datasets/common/work.ts";
import { FuzzyMatcher } from "./fuzzy.ts";
import { MatchPenalty } from "./ranking.ts";

export interface SearchPage {
  total: number;
  /** Place indexes of the requested page, in result order. */
  places: number[];
}

interface ParsedQuery {
  key: string;
  qualifiers: QualifierEntry[];
}

const encoder = new TextEncoder();

export class PlaceSearch {
  /** Best score of each touched place of the current query (NaN: not touched). */
  private readonly scoreOf: Float64Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  /** Per feature index: the capital/seat bonus (datasets/places/importance.ts). */
  private readonly featureSeat: Float64Array;
  /** Per place: log10(population + 1) - feature malus, computed once (4 bytes a place). */
  private readonly baseScore: Float32Array;
  private readonly fuzzy: FuzzyMatcher;
  private readonly qualifierByKey: Map<string, QualifierEntry>;
  /** Per qualifier of the current query: membership of each country and admin-1 index. */
  private filter: { countries: Uint8Array; admin1: Uint8Array }[] = [];

  /** `parts` are what `build` computes (computed here when not given). */
  constructor(private readonly index: PlacesIndex, parts: { fuzzy: FuzzyMatcher; baseScore: Float32Array } = finishNow(PlaceSearch.parts(index))) {
    this.scoreOf = new Float64Array(index.placeCount).fill(Number.NaN);
    this.touched = new Uint32Array(index.placeCount);
    this.fuzzy = parts.fuzzy;
    this.qualifierByKey = new Map(index.tables.qualifiers.map((q) => [q.key, q]));
    this.featureSeat = Float64Array.from(index.tables.features, (f) => seatBonus(f.featureCode));
    this.baseScore = parts.baseScore;
  }

  /** The searcher as work that yields between blocks of places (datasets/common/work.ts). */
  static *build(index: PlacesIndex): Work<PlaceSearch> {
    return new PlaceSearch(index, yield* PlaceSearch.parts(index));
  }

  private static *parts(index: PlacesIndex): Work<{ fuzzy: FuzzyMatcher; baseScore: Float32Array }> {
    const fuzzy = yield* FuzzyMatcher.build(index);
    const malus = Float64Array.from(index.tables.features, (f) => featureMalus(f.featureClass, f.featureCode));
    const baseScore = new Float32Array(index.placeCount);
    for (let p = 0; p < index.placeCount; p++) {
      if ((p & 0xffff) === 0xffff) yield;
      baseScore[p] = populationScore(index.population[p]!) - (malus[index.feature[p]!] ?? 0);
    }
    return { fuzzy, baseScore };
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
      if (resolved && key !== "") return { key, qualifiers };
    }
    return { key: foldName(text), qualifiers: [] };
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

  private run({ key, qualifiers }: ParsedQuery, limit: number, offset: number): SearchPage {
    if (key === "") return { total: 0, places: [] };
    const { countries, admin1 } = this.index.tables;
    this.filter = qualifiers.map((q) => {
      const mask = { countries: new Uint8Array(countries.length), admin1: new Uint8Array(admin1.length) };
      for (const c of q.countries) mask.countries[c] = 1;
      for (const a of q.admin1) mask.admin1[a] = 1;
      return mask;
    });
    try {
      this.collect(key);
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

  private mark(place: number, score: number): void {
    const current = this.scoreOf[place]!;
    if (current >= score) return;
    if (current !== current) {
      // NaN: first match of this place.
      if (this.filter.length > 0 && !this.passes(place)) return;
      this.touched[this.touchedCount++] = place;
    }
    this.scoreOf[place] = score;
  }

  private markExact(k: number): void {
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
    for (let p = start; p < end; p++) {
      const posting = ix.postings[p]!;
      const place = posting >>> POSTING_SHIFT;
      let score: number;
      if ((posting & PRIMARY_BIT) !== 0) score = this.base(place) + (this.featureSeat[ix.feature[place]!] ?? 0) - MatchPenalty.own;
      else score = this.base(place) - ((posting & WEAK_BIT) !== 0 ? MatchPenalty.weak : MatchPenalty.alternate) - shared;
      this.mark(place, score);
    }
  }

  /** Typo matches count only for places whose main or ASCII name the key is. */
  private markPrimaryPostings(k: number, edits: number): void {
    const ix = this.index;
    const penalty = edits <= 1 ? MatchPenalty.typo1 : MatchPenalty.typo2;
    const end = ix.postingOffsets[k + 1]!;
    for (let p = ix.postingOffsets[k]!; p < end; p++) {
      const posting = ix.postings[p]!;
      if ((posting & PRIMARY_BIT) !== 0) {
        const place = posting >>> POSTING_SHIFT;
        this.mark(place, this.base(place) - penalty);
      }
    }
  }

  private collect(key: string): void {
    const ix = this.index;
    const bytes = encoder.encode(key);
    let k = ix.lowerBound(bytes);
    if (k < ix.keyCount && ix.keyHasPrefix(k, bytes) && ix.keyOffsets[k + 1]! - ix.keyOffsets[k]! === bytes.length) {
      this.markExact(k);
      k++;
    }
    // Keys starting with the query are contiguous and end before query + 0xFF (a byte UTF-8
    // never uses); their postings are one contiguous slice.
    const upper = new Uint8Array(bytes.length + 1);
    upper.set(bytes);
    upper[bytes.length] = 0xff;
    const end = ix.lowerBound(upper);
    const postingsEnd = ix.postingOffsets[end]!;
    for (let p = ix.postingOffsets[k]!; p < postingsEnd; p++) {
      const posting = ix.postings[p]!;
      if ((posting & WEAK_BIT) !== 0) continue;
      const place = posting >>> POSTING_SHIFT;
      this.mark(place, this.base(place) - ((posting & PRIMARY_BIT) !== 0 ? MatchPenalty.ownPrefix : MatchPenalty.alternatePrefix));
    }
    const length = codePointLength(key);
    const edits = allowedEdits(length);
    if (edits > 0) this.fuzzy.match(key, length, edits, (fk, d) => this.markPrimaryPostings(fk, d));
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
    this.touchedCount = 0;
    this.filter = [];
  }
}
