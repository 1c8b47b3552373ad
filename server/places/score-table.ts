/**
 * The places one query touched, with their best score and their country and admin-1 index (which
 * the qualifiers read): an open-addressing hash table over typed arrays, so that a searcher's
 * memory grows with the matches of its largest query rather than with the gazetteer (a dense
 * per-place array would be 12 bytes a place, 150 MB at full size). Entries keep their order of
 * insertion; `reset` forgets them all.
 */

const EMPTY = 0;

export class ScoreTable {
  /** Entry index + 1 per slot (EMPTY: free). */
  private slots = new Int32Array(4096);
  private mask = 4095;
  place = new Uint32Array(1024);
  score = new Float64Array(1024);
  country = new Uint16Array(1024);
  admin1 = new Uint16Array(1024);
  count = 0;

  /** The entry of `place`, or -1. */
  find(place: number): number {
    let s = hash(place) & this.mask;
    for (;;) {
      const e = this.slots[s]!;
      if (e === EMPTY) return -1;
      if (this.place[e - 1] === place) return e - 1;
      s = (s + 1) & this.mask;
    }
  }

  /** Adds `place` (not present) with its score and areas; returns its entry. */
  add(place: number, score: number, country: number, admin1: number): number {
    if (this.count === this.place.length) this.growEntries();
    if (2 * (this.count + 1) > this.slots.length) this.rehash(2 * this.slots.length);
    const e = this.count++;
    this.place[e] = place;
    this.score[e] = score;
    this.country[e] = country;
    this.admin1[e] = admin1;
    let s = hash(place) & this.mask;
    while (this.slots[s] !== EMPTY) s = (s + 1) & this.mask;
    this.slots[s] = e + 1;
    return e;
  }

  reset(): void {
    // Few entries: clear their slots; many: clear all.
    if (8 * this.count < this.slots.length) {
      for (let e = 0; e < this.count; e++) {
        let s = hash(this.place[e]!) & this.mask;
        while (this.slots[s] !== e + 1) s = (s + 1) & this.mask;
        this.slots[s] = EMPTY;
      }
    } else this.slots.fill(EMPTY);
    this.count = 0;
  }

  private growEntries(): void {
    const n = 2 * this.place.length;
    this.place = grown(this.place, new Uint32Array(n));
    this.score = grown(this.score, new Float64Array(n));
    this.country = grown(this.country, new Uint16Array(n));
    this.admin1 = grown(this.admin1, new Uint16Array(n));
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let e = 0; e < this.count; e++) {
      let s = hash(this.place[e]!) & this.mask;
      while (this.slots[s] !== EMPTY) s = (s + 1) & this.mask;
      this.slots[s] = e + 1;
    }
  }
}

function hash(place: number): number {
  return Math.imul(place, 0x9e3779b1) >>> 7;
}

function grown<T extends Uint32Array | Float64Array | Uint16Array>(old: T, next: T): T {
  next.set(old as never);
  return next;
}
