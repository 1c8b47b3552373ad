/**
 * Wrapping the decision pages' list items: lines of at most the width, the same words in the same
 * order, and no break where CommonMark 0.31 would read the text differently: inside a code span
 * (a line ending there shows as a space in the code), after a backslash (a hard line break), or
 * before a word that opens a block at the start of a line (list items 5.2, ATX headings 4.2,
 * block quotes 5.1, fences 4.5, thematic breaks 4.1, HTML blocks 4.6, setext underlines 4.3).
 */
import { describe, expect, it } from "vitest";
import { DECISIONS, decisionsMarkdown } from "../../../server/openapi/decisions.ts";
import { markdownWords, wrapListItem } from "../../../server/openapi/markdown-wrap.ts";

/** The text of a wrapped item: its lines without marker and indentation, joined with spaces. */
const unwrap = (item: string, marker = "- "): string => item.split("\n").map((l, i) => (i === 0 ? l.slice(marker.length) : l.trimStart())).join(" ");

const filler = "word ".repeat(30).trim();

describe("wrapListItem", () => {
  it("fills lines up to the width and keeps every word in order", () => {
    // Eight words of four letters and a marker of two: 41 columns exactly.
    const item = wrapListItem("- ", filler, 41);
    expect(item.split("\n").every((l) => l.length <= 41)).toBe(true);
    expect(item.split("\n")[0]).toBe("- word word word word word word word word");
    expect(item.split("\n")[1]).toBe("  word word word word word word word word");
    expect(unwrap(item)).toBe(filler);
  });

  it("keeps a code span whole, however many backticks open it", () => {
    const text = "aaaa bbbb `x y z` cc ``a ` b`` dd";
    expect(markdownWords(text)).toEqual(["aaaa", "bbbb", "`x y z`", "cc", "``a ` b``", "dd"]);
    // An unmatched backtick is a literal one: the text around it splits as usual.
    expect(markdownWords("a ` b c")).toEqual(["a", "`", "b", "c"]);
    const item = wrapListItem("- ", text, 14);
    expect(item.split("\n")).toEqual(["- aaaa bbbb", "  `x y z` cc", "  ``a ` b`` dd"]);
  });

  it.each(["-", "+", "*", "1.", "12)", "#", "###", ">quoted", "<div>", "```ts", "~~~", "---", "===", "___", "|a|"])("never begins a line with %s", (word) => {
    const text = `aaaa bbbb ${word} cccc`;
    const item = wrapListItem("- ", text, 11);
    for (const line of item.split("\n").slice(1)) expect(line.trimStart().startsWith(word)).toBe(false);
    expect(unwrap(item)).toBe(text);
  });

  it("breaks before words that only look like block openers", () => {
    expect(wrapListItem("- ", "aaaa bbbb -5 °C", 11).split("\n")).toEqual(["- aaaa bbbb", "  -5 °C"]);
    expect(wrapListItem("- ", "aaaa bbbb 1.5 m", 11).split("\n")).toEqual(["- aaaa bbbb", "  1.5 m"]);
    expect(wrapListItem("- ", "aaaa bbbb #313695 x", 11).split("\n")).toEqual(["- aaaa bbbb", "  #313695 x"]);
  });

  it("never breaks after a backslash, a hard line break at the end of a line", () => {
    expect(wrapListItem("- ", "aaaa bbb\\ cccc dd", 11).split("\n")).toEqual(["- aaaa bbb\\ cccc", "  dd"]);
  });

  it("lets a word longer than the width run past it, on a line of its own", () => {
    const url = "https://example.org/" + "x".repeat(40);
    expect(wrapListItem("- ", `see ${url} then`, 20).split("\n")).toEqual(["- see", `  ${url}`, "  then"]);
  });
});

describe("the decision pages", () => {
  it("write each decision in lines of at most 100 columns, the same words as the OpenAPI description", () => {
    for (const d of DECISIONS) {
      const item = decisionsMarkdown([d]);
      expect(unwrap(item), d.topic).toBe(`**${d.topic}**: ${d.decision}`.replace(/ +/g, " "));
      const lines = item.split("\n");
      for (let i = 0; i < lines.length; i++) {
        if (lines[i]!.length <= 100) continue;
        // Past the width only where the last word could not begin the next line.
        const last = lines[i]!.slice(lines[i]!.lastIndexOf(" ") + 1);
        expect(/^(?:[-+*=_]+|\d+[.)]|#{1,6}|[<>|].*|```.*|~~~.*)$/.test(last) || lines[i]!.trim().split(" ").length === 1, `${d.topic}: ${lines[i]}`).toBe(true);
      }
    }
  });
});
