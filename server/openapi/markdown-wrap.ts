/**
 * Wrapping a Markdown list item to readable lines without changing what it renders to
 * (CommonMark 0.31): a line is broken only at a space outside a code span (a break inside one
 * would show as a space in the code), never after a backslash (a hard line break) and never before
 * a word that would open a block if it began a line (a list marker, a heading, a block quote, a
 * code fence, a thematic break or setext underline, an HTML block, a table row). Such a word stays
 * on the line before, which may then run past the width; so does a word longer than the width.
 * Continuation lines are indented by the width of the item's marker, so they stay in the item.
 */

/** Words that must not begin a line: `-`, `+`, `*`, `1.`, `1)`, `#`..`######` followed by a space, and any word starting `>`, `<`, `|`, a fence or made only of `-`, `_`, `*`, `=`. */
const OPENS_A_BLOCK = /^(?:[-+*]|\d{1,9}[.)]|#{1,6}|[>|<].*|```.*|~~~.*|[-_*=]+)$/;

/** Splits `text` at runs of spaces, keeping each code span (`...`, any number of backticks) whole. */
export function markdownWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " ") {
      if (word) words.push(word);
      word = "";
      i++;
    } else if (c === "`") {
      let run = 1;
      while (text[i + run] === "`") run++;
      const close = closingRun(text, i + run, run);
      const end = close < 0 ? i + run : close + run;
      word += text.slice(i, end);
      i = end;
    } else {
      word += c;
      i++;
    }
  }
  if (word) words.push(word);
  return words;
}

/** Where a run of exactly `run` backticks starts at or after `from`, or -1 (then the opening run is literal). */
function closingRun(text: string, from: number, run: number): number {
  for (let i = text.indexOf("`", from); i >= 0; i = text.indexOf("`", i)) {
    let n = 1;
    while (text[i + n] === "`") n++;
    if (n === run) return i;
    i += n;
  }
  return -1;
}

/**
 * `text` as a list item opened by `marker` (such as "- "), in lines of at most `width` characters
 * where the rules above allow it.
 */
export function wrapListItem(marker: string, text: string, width: number): string {
  const indent = " ".repeat(marker.length);
  const lines: string[] = [];
  let line = marker;
  let empty = true;
  for (const word of markdownWords(text)) {
    const fits = line.length + 1 + word.length <= width;
    const mayBreak = !OPENS_A_BLOCK.test(word) && !line.endsWith("\\");
    if (empty) {
      line += word;
      empty = false;
    } else if (fits || !mayBreak) {
      line += " " + word;
    } else {
      lines.push(line);
      line = indent + word;
    }
  }
  lines.push(line);
  return lines.join("\n");
}
