/**
 * Lines of a text stream in batches, one batch per chunk read: the same lines as node:readline
 * with `crlfDelay: Infinity` (ends at "\n", "\r\n" or a lone "\r"; a last line without an end is
 * kept, nothing after a final end), without one promise per line. On a 12.5-million-row GeoNames
 * dump the per-line `for await` of readline cost more than the row parsing (docs/rehearsals.md).
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

export interface LineBatch {
  lines: string[];
  /** 1-based number of lines[0] in the stream. */
  firstLineNumber: number;
}

const LINE_END = /\r\n|\r|\n/;

export async function* readLineBatches(stream: Readable): AsyncGenerator<LineBatch> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let next = 1;
  const split = (text: string, final: boolean): LineBatch | undefined => {
    // A chunk ending in "\r" may continue with "\n" in the next one: keep it for then.
    const held = !final && text.endsWith("\r");
    const lines = (held ? text.slice(0, -1) : text).split(LINE_END);
    const last = lines.pop()!;
    rest = held ? `${last}\r` : last;
    if (final && last !== "") lines.push(last);
    if (lines.length === 0) return undefined;
    const batch = { lines, firstLineNumber: next };
    next += lines.length;
    return batch;
  };
  for await (const chunk of stream) {
    const batch = split(rest + (typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer)), false);
    if (batch) yield batch;
  }
  const batch = split(rest + decoder.end(), true);
  if (batch) yield batch;
}
