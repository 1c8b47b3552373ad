/**
 * The sink of the writers compiled from an answer's description (answer-shape.ts): JSON text
 * appended as strings, constant text between values merged at compile time, numbers as
 * JSON.stringify writes them (common/json-number.ts). Strings, not bytes: V8 appends a string in a
 * few nanoseconds (a rope, flattened once), and the text is encoded to UTF-8 once, when the
 * envelope is made or a part is cut; no buffer to grow, no digit writer. Against a byte buffer
 * filled piece by piece (in process, compiled, runs alternated, the same answers byte for byte): a
 * 168-slot answer, read to envelope, costs 660-830 µs against 750-970; on the embedded default's
 * short answers (1-13 slots) a whole request costs about the same (point weather's mix 44.3
 * against 42.2 µs, weather by id's 76.0 against 75.5, means of eight runs each): the writer and
 * envelope save 5 µs there, and the ropes give the collector about as much back.
 *
 * Body parts (api/body-parts.ts) may be put between the text (an administrative description's
 * fragments): `toParts` gives the answer as parts, the text between them as strings, so that a
 * gzip answer is spliced from the fragments' deflated copies (and the long text deflated there,
 * body-parts.ts spliceable) while an identity answer writes the text once, into its body.
 */
import { jsonNumber } from "../../datasets/common/json-number.ts";
import type { TemplatePart } from "../api/instant-part.ts";

export class JsonText {
  /** The text written since the last parts. */
  private run = "";
  /** The parts put so far, the text between them included. */
  private readonly done: TemplatePart[] = [];

  /** JSON text as it is: constants, keys, already escaped strings (any Unicode). */
  text(json: string): this {
    this.run += json;
    return this;
  }

  /**
   * A number as JSON.stringify writes it; NaN is null, −0 is 0. Values here are rounded to 0-2
   * decimals, most whole or in tenths, which jsonNumber writes from whole numbers: against
   * JavaScript's own conversion, point weather's mix 33.1 against 36.6 µs a request in process and
   * weather by id's 60.7 against 70.0 (medians of six runs alternated, compiled, no response
   * cache); over HTTP 3-7 % less, inside the rounds' spread.
   */
  num(x: number): this {
    this.run += jsonNumber(x);
    return this;
  }

  /** Body parts in the answer's place: the text written since the last parts ends before them. */
  parts(list: readonly TemplatePart[]): this {
    this.endRun();
    this.done.push(...list);
    return this;
  }

  /** Everything written, as body parts. */
  toParts(): TemplatePart[] {
    this.endRun();
    return this.done;
  }

  /** The text written (when no parts were put). */
  json(): string {
    return this.run;
  }

  private endRun(): void {
    if (this.run === "") return;
    this.done.push(this.run);
    this.run = "";
  }
}
