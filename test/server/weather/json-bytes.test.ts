/**
 * The writers' sink as body parts (json-bytes.ts): parts put in place split the written bytes,
 * written runs of at least DEFLATED_RUN_MIN_BYTES become fragments (deflated for a spliced gzip),
 * and the parts, joined or spliced into gzip, give back exactly the bytes written.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Fragment, gzipParts, joinParts } from "../../../server/api/body-parts.ts";
import { atInstant } from "../../../server/api/instant-part.ts";
import { DEFLATED_RUN_MIN_BYTES, JsonBytes } from "../../../server/weather/json-bytes.ts";

/** The parts as the wire layer writes them (none of these says the instant). */
const written = (w: JsonBytes) => atInstant(w.toParts(), new Date(0));

describe("JsonBytes as body parts", () => {
  it("keeps parts in place, long runs as fragments, short ones as they are", () => {
    const admin = [Fragment.of('{"name":"Zürich"}'), ',"x":1'];
    const long = "7".repeat(DEFLATED_RUN_MIN_BYTES);
    // A small capacity: the buffer grows (is replaced) while runs already cut keep their bytes.
    const w = new JsonBytes(8).ascii('{"a":').parts(admin).ascii(',"b":').utf8('"Genève"').ascii(',"c":').parts([Fragment.of("null")]).ascii(',"d":').ascii(long).ascii("}");
    const parts = written(w);
    expect(parts.map((p) => (p instanceof Fragment ? "fragment" : typeof p))).toEqual(["object", "fragment", "string", "object", "fragment", "fragment"]);
    const want = `{"a":{"name":"Zürich"},"x":1,"b":"Genève","c":null,"d":${long}}`;
    expect(joinParts(parts).toString("utf8")).toBe(want);
    expect(gunzipSync(gzipParts(parts)).toString("utf8")).toBe(want);
  });

  it("without parts gives the bytes alone (empty when nothing was written)", () => {
    expect(new JsonBytes(4).toParts()).toEqual([]);
    const parts = written(new JsonBytes(4).ascii("[1,2]"));
    expect(joinParts(parts).toString("utf8")).toBe("[1,2]");
  });
});
