/**
 * Forward geocoding over the places index, read where it lies (datasets/places/index-reader.ts).
 *
 * Matching (on folded text, datasets/places/fold.ts): a place matches when one of its names
 * equals the query (exact), starts with it (prefix), or is a typo key within the allowed edits
 * (fuzzy: 1 edit for 4-7 code points, 2 from 8; transpositions count 1): main and ASCII names, and
 * the Latin-script alternate names of the most important places (pipeline/places/database.ts).
 * Typos are looked for only when the text is not a name (of a place the qualifiers let through): a
 * name that exists is not taken for a typo, and typos, which would all follow its strong matches,
 * are most of a search's work. Historic, colloquial and code names (weak) match exactly only.
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
 * (server/places/literal.ts). `total` counts every matching place (typos only when the text is no
 * name).
 */
import { allowedEdits, codePointLength, foldName } from "../../datasets/places/fold.ts";
import { APOSTROPHE_FLAG, POSTING_SHIFT, PRIMARY_BIT, TYPO_KEY_FLAG, WEAK_BIT, type QualifierEntry } from "../../datasets/places/index-format.ts";
import type { PlacesIndex } from "../../datasets/places/index-reader.ts";
import type { Postings } from "../../datasets/places/postings.ts";
import { seatBonus } from "../../datasets/places/importance.ts";
import { prefixEnd } from "../../datasets/places/key-table.ts";
import { FuzzyMatcher, type TypoMatch } from "./fuzzy.ts";
import { foldKeepingApostrophes, literalOf, type LiteralQuery } from "./literal.ts";
import { MatchPenalty, sharedAlternatePenalty } from "./ranking.ts";
import { ScoreTable } from "./score-table.ts";
import { SoftQualifier } from "./soft-qualifier.ts";

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
  /** The places the current query touched: best score, country and admin-1 of each. */
  private readonly scores = new ScoreTable();
  /**
   * Weak marks of the current query (a typo, an alternate-name prefix, a non-literal prefix): the
   * entry of the place and the score given. A place's best match is weak when its score is still
   * that score; only these few entries are visited, never every touched place.
   */
  private weakEntry = new Uint32Array(1024);
  private weakScore = new Float64Array(1024);
  private weakCount = 0;
  /** Whether the current query equals a (not historic, colloquial or code) name of a place the qualifiers let through. */
  private exactMatched = false;
  /** Per feature index: the capital/seat bonus (datasets/places/importance.ts). */
  private readonly featureSeat: Float64Array;
  private readonly fuzzy: FuzzyMatcher;
  private readonly soft: SoftQualifier;
  /** Per qualifier of the current query: membership of each country and admin-1 index. */
  private filter: { countries: Uint8Array; admin1: Uint8Array }[] = [];

  constructor(private readonly index: PlacesIndex) {
    this.fuzzy = new FuzzyMatcher(index);
    this.soft = new SoftQualifier(index, index.areas.admin1.length, index.areas.countries.length);
    this.featureSeat = Float64Array.from(index.areas.features, (f) => seatBonus(f.featureCode));
  }

  /** The qualifier whose folded text is `key`, or undefined (one read of its key block and one of its areas). */
  private qualifier(key: string): QualifierEntry | undefined {
    const found = this.index.qualifiers.find(encoder.encode(key));
    return found === undefined ? undefined : { key, ...this.index.qualifierAreas(found[0], found[1]) };
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
        const q = this.qualifier(n === 1 ? folded[i]! : folded.slice(i, i + n).join(" "));
        if (q) {
          span = n;
          // A repeated qualifier adds nothing; beyond MAX_FILTERS distinct ones (which leave nothing
          // anyway) they count as soft: a filter costs a pass over every match.
          if (qualifiers.some((other) => other.key === q.key)) continue;
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
      const q = this.qualifier(words.slice(k).join(" "));
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
    const { countries, admin1 } = this.index.areas;
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

  /** Whether a place of country `c` and admin-1 area `a` passes every known qualifier. */
  private passes(c: number, a: number): boolean {
    for (const q of this.filter) {
      // Out-of-range reads (the 0xFFFF "none") are undefined, i.e. not a member.
      if (q.countries[c] !== 1 && q.admin1[a] !== 1) return false;
    }
    return true;
  }

  /** The current score of posting i's place (NaN: not touched). */
  private scoreOf(postings: Postings, i: number): number {
    const e = this.scores.find(postings.posting(i) >>> POSTING_SHIFT);
    return e < 0 ? Number.NaN : this.scores.score[e]!;
  }

  /** Gives posting i's place `score` when better than its current one. */
  private mark(postings: Postings, i: number, score: number, weak: boolean): void {
    const place = postings.posting(i) >>> POSTING_SHIFT;
    const t = this.scores;
    let e = t.find(place);
    if (e >= 0) {
      if (t.score[e]! >= score) return;
      t.score[e] = score;
    } else {
      const c = postings.country(i);
      const a = postings.admin1(i);
      if (this.filter.length > 0 && !this.passes(c, a)) return;
      e = t.add(place, score, c, a);
    }
    if (weak) {
      if (this.weakCount === this.weakEntry.length) {
        const entries = new Uint32Array(2 * this.weakCount);
        entries.set(this.weakEntry);
        this.weakEntry = entries;
        const scores = new Float64Array(2 * this.weakCount);
        scores.set(this.weakScore);
        this.weakScore = scores;
      }
      this.weakEntry[this.weakCount] = e;
      this.weakScore[this.weakCount++] = score;
    }
  }

  /** Places whose admin-1 area or country resembles the soft qualifiers come first, the more words the earlier. */
  private boostSoft(): void {
    const t = this.scores;
    for (let e = 0; e < t.count; e++) {
      const words = this.soft.score(t.country[e]!, t.admin1[e]!);
      if (words > 0) t.score[e] = t.score[e]! + SOFT_TIER * words;
    }
  }

  /**
   * When both kinds matched, the best weak match keeps its score and the other weak matches follow
   * every strong one: a typo or an alternate-name prefix of a much bigger place may come first,
   * but weak matches never crowd out the places whose names the text is or begins.
   */
  private demoteWeak(): void {
    const { weakEntry, weakScore } = this;
    const { score, place } = this.scores;
    let weakPlaces = 0;
    let best = -1;
    for (let w = 0; w < this.weakCount; w++) {
      const e = weakEntry[w]!;
      if (score[e] !== weakScore[w]) continue;
      weakPlaces++;
      if (best < 0 || score[e]! > score[best]! || (score[e] === score[best] && place[e]! < place[best]!)) best = e;
    }
    if (weakPlaces === 0 || weakPlaces === this.scores.count) return;
    // Exact before near: when the text is a name, no weak match precedes the strong ones.
    if (this.exactMatched) best = -1;
    for (let w = 0; w < this.weakCount; w++) {
      const e = weakEntry[w]!;
      if (e !== best && score[e] === weakScore[w]) score[e] = score[e]! - WEAK_TIER;
    }
  }

  /** The postings [from, to) of the key the text equals. */
  private markExact(postings: Postings, from: number, to: number, apostrophes: string | undefined): void {
    // An alternate name that is also some place's own name is ambiguous: it counts less, the more
    // so the more important the first place so called (postings come in rank order).
    let shared = 0;
    for (let i = from; i < to; i++) {
      if ((postings.posting(i) & PRIMARY_BIT) !== 0) {
        const seat = this.featureSeat[postings.feature(i)] ?? 0;
        shared = sharedAlternatePenalty(postings.base(i) + seat, seat);
        break;
      }
    }
    // Postings come in rank order: the first place called so (that the qualifiers let through) is
    // the one the name means; its namesakes count as much as a prefix would.
    let namesake = false;
    for (let i = from; i < to; i++) {
      const posting = postings.posting(i);
      const base = postings.base(i);
      let score: number;
      if ((posting & PRIMARY_BIT) === 0) score = base - ((posting & WEAK_BIT) !== 0 ? MatchPenalty.weak : MatchPenalty.alternate) - shared;
      else if (apostrophes !== undefined && !this.keepsApostrophes(postings, i, apostrophes)) {
        this.mark(postings, i, base - MatchPenalty.unliteral, true);
        continue;
      } else if (namesake) score = base - MatchPenalty.namesake;
      else {
        if (this.filter.length > 0 && !this.passes(postings.country(i), postings.admin1(i))) continue;
        score = base + (this.featureSeat[postings.feature(i)] ?? 0) - MatchPenalty.own;
        namesake = true;
      }
      this.mark(postings, i, score, false);
      if ((posting & WEAK_BIT) === 0 && this.scoreOf(postings, i) === score) this.exactMatched = true;
    }
  }

  /** Whether posting i's place's GeoNames name, folded with its apostrophes kept, starts with `literal` (a read of its name, for the few names where that fold differs). */
  private keepsApostrophes(postings: Postings, i: number, literal: string): boolean {
    if ((postings.flags(i) & APOSTROPHE_FLAG) === 0) return false;
    return foldKeepingApostrophes(this.index.record(postings.posting(i) >>> POSTING_SHIFT).name).startsWith(literal);
  }

  /**
   * A typo of a key counts for the places whose main, ASCII or alternate name it is (historic,
   * colloquial and code names excepted), at the same penalty: the pipeline admits to typo matching
   * the main names and the Latin-script alternate names of the most important places.
   */
  private markTypoPostings({ key, edits, sameFirst }: TypoMatch, postings: Postings, query: Uint8Array): void {
    const oneEdit = isSwap(key.bytes, 0, key.bytes.byteLength, query) ? MatchPenalty.transposition : MatchPenalty.typo1;
    const penalty = (edits <= 1 ? oneEdit : MatchPenalty.typo2) + (sameFirst ? 0 : MatchPenalty.typoFirstLetter);
    for (let i = 0; i < postings.count; i++) {
      const posting = postings.posting(i);
      if ((posting & WEAK_BIT) === 0) {
        this.mark(postings, i, postings.base(i) - penalty - ((posting & PRIMARY_BIT) === 0 ? MatchPenalty.typoAlternate : 0), true);
      }
    }
  }

  private collect(key: string, literal: LiteralQuery | undefined): void {
    const bytes = encoder.encode(key);
    // The keys starting with the query (the query itself first, when it is a key) are contiguous,
    // and so are their postings: one read of their key blocks, one of their postings.
    const run = this.index.keys.range(bytes, prefixEnd(bytes));
    if (run.count > 0) {
      const first = run.value0[0]!;
      const last = run.count - 1;
      const postings = this.index.postings(first, run.value0[last]! + (run.value1[last]! & ~TYPO_KEY_FLAG) - first);
      let k = 0;
      if (run.keyEnd[0]! - run.keyStart[0]! === bytes.length) {
        this.markExact(postings, 0, run.value1[0]! & ~TYPO_KEY_FLAG, literal?.apostrophes);
        k++;
      }
      for (; k < run.count; k++) {
        // An alternate name that takes part in typo matching (an exonym or own-language name of an
        // important place, see pipeline/places/database.ts) is a strong prefix match, other
        // alternate names a weak one. Three letters begin too many alternate names: those prefixes stay weak.
        const typoKey = bytes.length >= MIN_ALTERNATE_PREFIX && (run.value1[k]! & TYPO_KEY_FLAG) !== 0;
        // A final separator: the key's word must end where the query does (keys are folded, so a space).
        const wordEnds = literal === undefined || !literal.wordEnd || run.bytes[run.keyStart[k]! + bytes.length] === 0x20;
        const from = run.value0[k]! - first;
        const to = from + (run.value1[k]! & ~TYPO_KEY_FLAG);
        for (let i = from; i < to; i++) {
          const posting = postings.posting(i);
          if ((posting & WEAK_BIT) !== 0) continue;
          const base = postings.base(i);
          if ((posting & PRIMARY_BIT) === 0) {
            if (typoKey) this.mark(postings, i, base - MatchPenalty.knownAlternatePrefix, false);
            else this.mark(postings, i, base - MatchPenalty.alternatePrefix, true);
          }
          else if (wordEnds && (literal?.apostrophes === undefined || this.keepsApostrophes(postings, i, literal.apostrophes))) {
            this.mark(postings, i, base - MatchPenalty.ownPrefix, false);
          } else this.mark(postings, i, base - MatchPenalty.unliteral, true);
        }
      }
    }
    // A text that is a name is not taken for a typo (the module comment).
    if (this.exactMatched) return;
    const length = codePointLength(key);
    const edits = allowedEdits(length);
    if (edits > 0) {
      const matches = this.fuzzy.match(key, length, edits);
      // The matches' postings, neighbours in one read.
      const postings = this.index.postingsOf(matches.map((m) => m.key));
      matches.forEach((m, i) => this.markTypoPostings(m, postings[i]!, bytes));
    }
  }

  /** The page [offset, offset + limit) of the matches by score (descending), ties by rank. */
  private page(limit: number, offset: number): SearchPage {
    const { score, place, count: total } = this.scores;
    const need = Math.min(total, offset + limit);
    if (offset >= need) return { total, places: [] };
    const before = (a: number, b: number): boolean => score[a]! > score[b]! || (score[a] === score[b] && place[a]! < place[b]!);
    let best: Uint32Array;
    if (need <= 64 && need * 8 < total) {
      // Few wanted from many: keep the `need` best in a sorted buffer (one pass).
      best = new Uint32Array(need);
      let filled = 0;
      for (let e = 0; e < total; e++) {
        if (filled === need && !before(e, best[need - 1]!)) continue;
        let i = filled < need ? filled++ : need - 1;
        while (i > 0 && before(e, best[i - 1]!)) {
          best[i] = best[i - 1]!;
          i--;
        }
        best[i] = e;
      }
    } else {
      best = new Uint32Array(total);
      for (let e = 0; e < total; e++) best[e] = e;
      best.sort((a, b) => score[b]! - score[a]! || place[a]! - place[b]!);
    }
    return { total, places: Array.from(best.subarray(offset, need), (e) => place[e]!) };
  }

  private reset(): void {
    this.scores.reset();
    this.weakCount = 0;
    this.exactMatched = false;
    this.filter = [];
  }
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
