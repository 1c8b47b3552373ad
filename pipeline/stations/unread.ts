/**
 * What a decoder could not read: the group as written and its character offset in the report
 * text given to the decoder. Decoders never throw; they list these instead.
 */
export interface UnreadGroup {
  group: string;
  /** Character offset of the group's first character in the decoded text. */
  offset: number;
  /** Why it was not read, e.g. "not a METAR group", "value out of range", "non-printable character". */
  reason: string;
}

/** A whitespace-separated group of a report and where it starts. */
export interface Token {
  text: string;
  offset: number;
}

/**
 * Splits a report into groups. Separators are blanks and every character outside printable ASCII
 * (control characters, NUL, bytes >= 0x7F read as latin1): real bulletins carry stray CR, NBSP and
 * NUL bytes between groups. Each such character is recorded as unread so nothing is lost silently;
 * ordinary blanks (space, tab, CR, LF) are not. `=` ends the report: what follows is returned as
 * unread.
 */
export function tokenize(text: string, unread: UnreadGroup[]): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) {
      if (c === 0x3d /* = */) {
        if (start >= 0) tokens.push({ text: text.slice(start, i), offset: start });
        start = -1;
        const rest = text.slice(i + 1).trim();
        if (rest.length > 0) unread.push({ group: rest, offset: text.indexOf(rest, i + 1), reason: "text after the end-of-report sign '='" });
        return tokens;
      }
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      tokens.push({ text: text.slice(start, i), offset: start });
      start = -1;
    }
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      unread.push({ group: text[i]!, offset: i, reason: "non-printable character" });
    }
  }
  if (start >= 0) tokens.push({ text: text.slice(start), offset: start });
  return tokens;
}
