/**
 * A piece of an answer that says the request's instant (the timezone member's local time, weather
 * by id's current date and hour), given by a handler among its body parts unwritten: the wire
 * layer writes it at the request's instant, and the response cache keeps the rest of such an
 * answer and writes only these pieces again at each hit (http/caching.ts).
 */
import { Fragment, type BodyPart } from "./body-parts.ts";

export class InstantPart {
  /** `write` gives the piece's JSON (text or UTF-8 bytes) at an instant; it must depend on nothing else that changes. */
  constructor(readonly write: (now: Date) => string | Buffer) {}
}

/** A body part, or a piece written at the instant. */
export type TemplatePart = BodyPart | InstantPart;

/** Whether any of the parts is written at the instant. */
export function hasInstantPart(parts: readonly TemplatePart[]): boolean {
  for (const p of parts) if (p instanceof InstantPart) return true;
  return false;
}

/** The parts with each instant piece written at `now`. */
export function atInstant(parts: readonly TemplatePart[], now: Date): BodyPart[] {
  return parts.map((p) => (p instanceof InstantPart ? p.write(now) : p));
}

/**
 * The parts as a kept answer holds them: each run of parts between the instant pieces joined into
 * one fragment (Fragment.joined), its bytes owned and its checksum and deflated copy made once, so
 * that a hit writes the instant pieces and copies a few fragments.
 */
export function keptTemplate(parts: readonly TemplatePart[]): TemplatePart[] {
  const kept: TemplatePart[] = [];
  let run: BodyPart[] = [];
  const endRun = (): void => {
    if (run.length > 0) kept.push(Fragment.joined(run));
    run = [];
  };
  for (const p of parts) {
    if (p instanceof InstantPart) {
      endRun();
      kept.push(p);
    } else run.push(p);
  }
  endRun();
  return kept;
}
