/**
 * The writers' sink (json-text.ts): numbers as JSON.stringify writes them, and the text as body
 * parts: parts put in place split the written text, the text stays text (a spliced gzip deflates
 * runs of at least DEFLATED_TEXT_MIN_CHARS, stores shorter ones), and the parts, joined or spliced
 * into gzip, give back exactly the text written.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEFLATED_TEXT_MIN_CHARS, Fragment, gzipParts, joinParts } from "../../../server/api/body-parts.ts";
import { atInstant } from "../../../server/api/instant-part.ts";
import { JsonText } from "../../../server/weather/json-text.ts";

/** The parts as the wire layer writes them (none of these says the instant). */
const written = (w: JsonText) => atInstant(w.toParts(), new Date(0));

describe("JsonText numbers", () => {
  it("writes the values of the answers (0-2 decimals) as JSON.stringify does, NaN as null", () => {
    const values = [0, -0, 1, -1, 0.5, 0.1, 0.07, -0.25, 12.9, 1010.4, 2644, -40, 99.99, 100000.01, 3.44];
    const w = new JsonText();
    values.forEach((x, k) => w.text(k === 0 ? "[" : ",").num(x));
    w.text(",").num(NaN).text("]");
    expect(w.json()).toBe(JSON.stringify([...values, null]));
    expect(w.json().startsWith("[0,0,")).toBe(true);
  });
});

describe("JsonText as body parts", () => {
  it("keeps parts in place and the text between them as text; a spliced gzip deflates the long text", () => {
    const admin = [Fragment.of('{"name":"Zürich"}'), ',"x":1'];
    const long = "7".repeat(DEFLATED_TEXT_MIN_CHARS);
    const w = new JsonText().text('{"a":').parts(admin).text(',"b":').text('"Genève"').text(',"c":').parts([Fragment.of("null")]).text(',"d":').text(long).text("}");
    const parts = written(w);
    expect(parts.map((p) => (p instanceof Fragment ? "fragment" : typeof p))).toEqual(["string", "fragment", "string", "string", "fragment", "string"]);
    const want = `{"a":{"name":"Zürich"},"x":1,"b":"Genève","c":null,"d":${long}}`;
    expect(joinParts(parts).toString("utf8")).toBe(want);
    const gzip = gzipParts(parts);
    expect(gunzipSync(gzip).toString("utf8")).toBe(want);
    // Stored, the 1,024 sevens alone would take more than 1,024 bytes.
    expect(gzip.byteLength).toBeLessThan(200);
    // One character short of the threshold, the text is stored: at least its own length.
    const shorter = written(new JsonText().text(long.slice(1)));
    expect(gunzipSync(gzipParts(shorter)).toString("utf8")).toBe(long.slice(1));
    expect(gzipParts(shorter).byteLength).toBeGreaterThan(DEFLATED_TEXT_MIN_CHARS);
  });

  it("without parts gives the text alone (no part when nothing was written)", () => {
    expect(new JsonText().toParts()).toEqual([]);
    const w = new JsonText().text("[").num(1).text(",").num(2).text("]");
    expect(w.json()).toBe("[1,2]");
    expect(joinParts(written(w)).toString("utf8")).toBe("[1,2]");
  });
});
