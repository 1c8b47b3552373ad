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
 * Order: tier (exact > exact on a weak name > prefix > fuzzy), then rank (the place index, which
 * is importance order with ties by GeoNames id): a total order, so offset paging never repeats
 * or skips. `total` counts every matching place.
 */
import { allowedEdits, codePointLength, foldName } from "../../datasets/places/fold.ts";
import { POSTING_SHIFT, PRIMARY_BIT, WEAK_BIT, type QualifierEntry } from "../../datasets/places/index-format.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import { importanceOf } from "../../datasets/places/importance.ts";
import { FuzzyMatcher } from "./fuzzy.ts";

export const Tier = { exactPrimary: 5, exact: 4, exactWeak: 3, prefix: 2, fuzzy: 1 } as const;
/**
 * Result groups, best first. Inside the exact group, places are ordered by importance plus
 * PRIMARY_NAME_BONUS when the query is the place's own name (so "Dili" is Timor-Leste's capital
 * before Delhi, one of whose alternate names is Dili); inside the other groups by rank.
 */
const GROUPS: readonly (readonly number[])[] = [[Tier.exactPrimary, Tier.exact], [Tier.exactWeak], [Tier.prefix], [Tier.fuzzy]];
/** One order of magnitude of population. */
export const PRIMARY_NAME_BONUS = 1;

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
  private readonly tierOf: Uint8Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  private readonly tierCounts = new Uint32Array(6);
  /** importanceOf(class, code, 0) per feature index: importance = log10(pop + 1) + this. */
  private readonly featureImportance: Float64Array;
  private readonly fuzzy: FuzzyMatcher;
  private readonly qualifierByKey: Map<string, QualifierEntry>;
  /** Per qualifier of the current query: membership of each country and admin-1 index. */
  private filter: { countries: Uint8Array; admin1: Uint8Array }[] = [];

  constructor(private readonly index: PlacesIndex) {
    this.tierOf = new Uint8Array(index.placeCount);
    this.touched = new Uint32Array(index.placeCount);
    this.fuzzy = new FuzzyMatcher(index);
    this.qualifierByKey = new Map(index.tables.qualifiers.map((q) => [q.key, q]));
    this.featureImportance = Float64Array.from(index.tables.features, (f) => importanceOf(f.featureClass, f.featureCode, 0));
  }

  /** The same importance the pipeline ranked by (population clamped to uint32). */
  private importance(place: number): number {
    const f = this.index.feature[place]!;
    return Math.log10(this.index.population[place]! + 1) + (this.featureImportance[f] ?? 0);
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

  private mark(place: number, tier: number): void {
    const current = this.tierOf[place]!;
    if (current >= tier) return;
    if (this.filter.length > 0 && !this.passes(place)) return;
    if (current === 0) this.touched[this.touchedCount++] = place;
    else this.tierCounts[current]!--;
    this.tierOf[place] = tier;
    this.tierCounts[tier]!++;
  }

  private markExact(k: number): void {
    const ix = this.index;
    const end = ix.postingOffsets[k + 1]!;
    for (let p = ix.postingOffsets[k]!; p < end; p++) {
      const posting = ix.postings[p]!;
      const tier = (posting & WEAK_BIT) !== 0 ? Tier.exactWeak : (posting & PRIMARY_BIT) !== 0 ? Tier.exactPrimary : Tier.exact;
      this.mark(posting >>> POSTING_SHIFT, tier);
    }
  }

  /** Typo matches count only for places whose main or ASCII name the key is. */
  private markPrimaryPostings(k: number): void {
    const ix = this.index;
    const end = ix.postingOffsets[k + 1]!;
    for (let p = ix.postingOffsets[k]!; p < end; p++) {
      const posting = ix.postings[p]!;
      if ((posting & PRIMARY_BIT) !== 0) this.mark(posting >>> POSTING_SHIFT, Tier.fuzzy);
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
      if ((posting & WEAK_BIT) === 0) this.mark(posting >>> POSTING_SHIFT, Tier.prefix);
    }
    const length = codePointLength(key);
    const edits = allowedEdits(length);
    if (edits > 0) this.fuzzy.match(key, length, edits, (fk) => this.markPrimaryPostings(fk));
  }

  private page(limit: number, offset: number): SearchPage {
    const total = this.touchedCount;
    const places: number[] = [];
    let skip = offset;
    for (const group of GROUPS) {
      if (places.length >= limit) break;
      const size = group.reduce((n, t) => n + this.tierCounts[t]!, 0);
      if (skip >= size) {
        skip -= size;
        continue;
      }
      const need = skip + (limit - places.length);
      const sorted = group.length === 1 ? this.sortedTier(group[0]!, size, need) : this.sortedExact(size, need);
      for (let i = skip; i < sorted.length && places.length < limit; i++) places.push(sorted[i]!);
      skip = 0;
    }
    return { total, places };
  }

  /** The first `need` exact matches: importance (+ bonus for the place's own name), then rank. */
  private sortedExact(size: number, need: number): Uint32Array {
    const all = new Uint32Array(size);
    const score = new Float64Array(size);
    let j = 0;
    for (let t = 0; t < this.touchedCount; t++) {
      const p = this.touched[t]!;
      const tier = this.tierOf[p]!;
      if (tier !== Tier.exactPrimary && tier !== Tier.exact) continue;
      all[j] = p;
      score[j] = this.importance(p) + (tier === Tier.exactPrimary ? PRIMARY_NAME_BONUS : 0);
      j++;
    }
    const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => score[b]! - score[a]! || all[a]! - all[b]!);
    return Uint32Array.from(order.slice(0, Math.min(size, need)), (i) => all[i]!);
  }

  /** The first `need` places of a tier in rank order. */
  private sortedTier(tier: number, size: number, need: number): Uint32Array {
    const n = this.index.placeCount;
    const count = Math.min(size, need);
    const out = new Uint32Array(count);
    if (size * 16 > n) {
      // A large tier: scanning the tier bytes in place order beats sorting.
      let j = 0;
      for (let p = 0; p < n && j < count; p++) if (this.tierOf[p] === tier) out[j++] = p;
      return out;
    }
    if (count <= 64 && count * 8 < size) {
      // Few wanted from many: keep the `count` smallest in a sorted buffer (one pass).
      let filled = 0;
      for (let t = 0; t < this.touchedCount; t++) {
        const p = this.touched[t]!;
        if (this.tierOf[p] !== tier) continue;
        if (filled === count && p >= out[count - 1]!) continue;
        let i = filled < count ? filled++ : count - 1;
        while (i > 0 && out[i - 1]! > p) {
          out[i] = out[i - 1]!;
          i--;
        }
        out[i] = p;
      }
      return out;
    }
    const all = new Uint32Array(size);
    let j = 0;
    for (let t = 0; t < this.touchedCount; t++) {
      const p = this.touched[t]!;
      if (this.tierOf[p] === tier) all[j++] = p;
    }
    all.sort();
    return all.subarray(0, count);
  }

  private reset(): void {
    for (let t = 0; t < this.touchedCount; t++) this.tierOf[this.touched[t]!] = 0;
    this.touchedCount = 0;
    this.tierCounts.fill(0);
    this.filter = [];
  }
}
