/**
 * A growable byte buffer for writing JSON directly as UTF-8: constant fragments are encoded once
 * and copied, numbers are written digit by digit. The sink of the writers compiled from an answer's
 * description (answer-shape.ts): a 7-day hourly answer is ~180 KB of mostly constant text, where
 * building a string and encoding it cost several times the forecast read. Body parts (api/body-parts.ts)
 * may be put between the bytes (an administrative description's fragments): `toParts` gives the
 * answer as parts, so that a gzip answer is spliced from the fragments' deflated copies.
 */
import { Fragment } from "../api/body-parts.ts";
import type { TemplatePart } from "../api/instant-part.ts";

/**
 * Written bytes between parts at least this long become a fragment (deflated once per answer for
 * a spliced gzip); shorter ones go as they are, in a stored block: deflating them would cost a
 * zlib call (11-14 µs whatever the length, api/body-parts.ts) to save a few hundred bytes.
 */
export const DEFLATED_RUN_MIN_BYTES = 1024;

const encoder = new TextEncoder();

/** A constant JSON fragment, encoded once. */
export function fragment(text: string): Uint8Array {
  return encoder.encode(text);
}

const NULL = fragment("null");

export class JsonBytes {
  private buf: Buffer;
  private pos = 0;
  /** The parts put so far, and where the bytes written after the last one start. */
  private readonly done: TemplatePart[] = [];
  private mark = 0;

  constructor(capacity = 4096) {
    // Not zeroed: only the bytes written are ever read (bytes()). Small ones come from Node's pool.
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** ASCII text (keys such as dates and times; no escaping needed). */
  ascii(text: string): this {
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.pos++] = text.charCodeAt(i);
    return this;
  }

  /**
   * A number with at most two decimals, written as JavaScript (and JSON.stringify) writes it:
   * no trailing zeros, no exponent, "-" only below zero; NaN is null. Values here are already
   * rounded to 0-2 decimals and far below 2^53 / 100.
   */
  num(x: number): this {
    if (x !== x) return this.raw(NULL);
    this.ensure(24);
    const b = this.buf;
    if (x < 0) {
      b[this.pos++] = 45; // "-"
      x = -x;
    }
    const scaled = Math.round(x * 100);
    let int = Math.floor(scaled / 100);
    const frac = scaled - int * 100;
    // Integer digits, written backwards into place.
    let digits = 1;
    for (let t = int; t >= 10; t = Math.floor(t / 10)) digits++;
    for (let d = digits - 1; d >= 0; d--) {
      b[this.pos + d] = 48 + (int % 10);
      int = Math.floor(int / 10);
    }
    this.pos += digits;
    if (frac !== 0) {
      b[this.pos++] = 46; // "."
      b[this.pos++] = 48 + Math.floor(frac / 10);
      if (frac % 10 !== 0) b[this.pos++] = 48 + (frac % 10);
    }
    return this;
  }

  /** Text that may need UTF-8's multi-byte forms (JSON already escaped, e.g. a stored member). */
  utf8(text: string): this {
    this.ensure(3 * text.length);
    this.pos += this.buf.write(text, this.pos, "utf8");
    return this;
  }

  /** Body parts in the answer's place: the bytes written since the last parts end before them. */
  parts(list: readonly TemplatePart[]): this {
    this.endRun();
    this.done.push(...list);
    return this;
  }

  /** Everything written, as body parts (the bytes alone when no parts were put). */
  toParts(): TemplatePart[] {
    this.endRun();
    return this.done;
  }

  private endRun(): void {
    if (this.pos === this.mark) return;
    // Later writes never touch these bytes: they go past pos, or into a new buffer (ensure).
    const run = this.buf.subarray(this.mark, this.pos);
    this.done.push(run.byteLength >= DEFLATED_RUN_MIN_BYTES ? new Fragment(run) : run);
    this.mark = this.pos;
  }

  /** The bytes written (when no parts were put). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
