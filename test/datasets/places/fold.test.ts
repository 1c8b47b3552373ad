import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { allowedEdits, codePointLength, foldName, foldUnicode } from "../../../datasets/places/fold.ts";

describe("foldName", () => {
  it("folds case and diacritics as the issue requires", () => {
    expect(foldName("Zürich")).toBe("zurich");
    expect(foldName("ZURICH")).toBe("zurich");
    expect(foldName("Kraków")).toBe(foldName("Krakow"));
    expect(foldName("São Paulo")).toBe("sao paulo");
    expect(foldName("İstanbul")).toBe("istanbul");
  });

  it("spells out letters that do not decompose", () => {
    expect(foldName("Łódź")).toBe("lodz");
    expect(foldName("Gießen")).toBe("giessen");
    expect(foldName("Tromsø")).toBe("tromso");
    expect(foldName("Þórshöfn")).toBe("thorshofn");
  });

  it("drops apostrophes and full stops, turns other punctuation into one space", () => {
    expect(foldName("N'Djamena")).toBe("ndjamena");
    expect(foldName("Xi’an")).toBe("xian");
    expect(foldName("St. Louis")).toBe("st louis");
    expect(foldName("Saint-Denis")).toBe("saint denis");
    expect(foldName("  Washington,   D.C. ")).toBe("washington dc");
  });

  it("keeps other scripts intact (only Latin-style accents are removed)", () => {
    expect(foldName("Москва")).toBe("москва");
    expect(foldName("東京")).toBe("東京");
    expect(foldName("ベルリン")).toBe("ベルリン");
    expect(foldName("서울")).toBe("서울");
    expect(foldName("मुंबई")).toBe("मुंबई");
    expect(foldName("Αθήνα")).toBe("αθηνα");
  });

  it("is idempotent", () => {
    for (const s of ["Zürich", "東京", "N'Djamena", "서울", "Ελλάς"]) expect(foldName(foldName(s))).toBe(foldName(s));
  });
});

describe("typo budget", () => {
  it("allows 1 edit for 4 to 7 characters and 2 from 8", () => {
    expect([3, 4, 7, 8, 20].map(allowedEdits)).toEqual([0, 1, 1, 2, 2]);
    expect(codePointLength("東京")).toBe(2);
  });
});

describe("foldName's printable-ASCII path", () => {
  it("equals the general fold for every printable ASCII character and pair, and for the fixture's real ASCII names", () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    const texts = [...printable, ...printable.flatMap((a) => printable.map((b) => `${a}A${b}b`))];
    const fixture = readFileSync(path.join(PROJECT_ROOT, "test", "fixtures", "places", "cities500-excerpt.txt"), "utf8");
    const names = fixture.split("\n").flatMap((l) => l.split("\t").slice(1, 4)).flatMap((n) => n.split(","));
    const asciiNames = names.filter((n) => /^[\x20-\x7e]*$/.test(n));
    expect(asciiNames.length).toBeGreaterThan(20);
    for (const t of [...texts, ...asciiNames, "  Washington,   D.C. ", "N'Djamena", "St. Louis"]) expect(foldName(t)).toBe(foldUnicode(t));
  });
});
