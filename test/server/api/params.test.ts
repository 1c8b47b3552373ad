import { describe, expect, it } from "vitest";
import { parseDecimal, parseLatitude, parseLimit, parseLongitude, parseOffset, parseQ, parseId } from "../../../server/api/params.ts";
import { Query } from "../../../server/api/query.ts";
import { badRequestMessage } from "../../helpers/bad-request.ts";

function query(search: string, allowed: string[] = ["lat", "lon", "q", "id", "limit", "offset"]): Query {
  return new Query(new URLSearchParams(search), allowed);
}

describe("parseDecimal", () => {
  it.each([
    ["0", 0],
    ["-0", 0],
    ["90", 90],
    ["-90", -90],
    ["52.52", 52.52],
    ["+52.5", 52.5],
    [".5", 0.5],
    ["5.", 5],
    ["00012.500", 12.5],
    ["-89.999999999", -89.999999999],
  ])("accepts %s", (raw, expected) => {
    expect(parseDecimal("lat", raw, -90, 90)).toBe(expected);
  });

  it.each([
    "", " ", "NaN", "nan", "Infinity", "-Infinity", "1e2", "1E-5", "1e400", "0x10", "0b1", "0o7",
    "12abc", "12 ", " 12", "1,5", "1.2.3", "--1", "+-1", ".", "-", "+", "90.0000001", "-90.1",
    "1_000", "١٢", "12\u0000", "9".repeat(40), "½",
  ])("rejects %j with a message naming parameter and value", (raw) => {
    const message = badRequestMessage(() => parseDecimal("lat", raw, -90, 90));
    expect(message).toContain("'lat'");
    expect(message).toContain(JSON.stringify(raw.length > 100 ? raw.slice(0, 100) + "…" : raw));
  });

  it("treats range limits as inclusive", () => {
    expect(parseDecimal("lon", "-180", -180, 180)).toBe(-180);
    expect(parseDecimal("lon", "180.000", -180, 180)).toBe(180);
    badRequestMessage(() => parseDecimal("lon", "180.0001", -180, 180));
  });
});

describe("lat/lon from a query", () => {
  it("reads both", () => {
    const q = query("lat=48.8566&lon=2.3522");
    expect(parseLatitude(q)).toBe(48.8566);
    expect(parseLongitude(q)).toBe(2.3522);
  });
  it("names a missing parameter", () => {
    expect(badRequestMessage(() => parseLongitude(query("lat=1")))).toContain("'lon'");
  });
  it("refuses a repeated parameter", () => {
    expect(badRequestMessage(() => query("lat=1&lat=2"))).toMatch(/'lat' was given 2 times/);
  });
  it("refuses an unknown parameter", () => {
    expect(badRequestMessage(() => query("lat=1&lng=2", ["lat", "lon"]))).toContain('"lng"');
  });
});

describe("limit and offset", () => {
  it("defaults", () => {
    expect(parseLimit(query(""))).toBe(10);
    expect(parseOffset(query(""))).toBe(0);
  });
  it("accepts bounds", () => {
    expect(parseLimit(query("limit=0"))).toBe(0);
    expect(parseLimit(query("limit=100"))).toBe(100);
    expect(parseOffset(query("offset=1000000"))).toBe(1_000_000);
  });
  it.each(["-1", "101", "1.5", "", "abc", "1e2", "0x10", " 5", "99999999999", "+3"])("rejects limit=%j", (raw) => {
    expect(badRequestMessage(() => parseLimit(query(`limit=${encodeURIComponent(raw)}`)))).toContain("'limit'");
  });
  it.each(["-1", "1000001", "2.0", "", "x"])("rejects offset=%j", (raw) => {
    expect(badRequestMessage(() => parseOffset(query(`offset=${encodeURIComponent(raw)}`)))).toContain("'offset'");
  });
});

describe("q and id", () => {
  it("trims", () => {
    expect(parseQ(query("q=%20%20Berlin%20"))).toBe("Berlin");
    expect(parseId(query("id=%20EDDF%20"))).toBe("EDDF");
  });
  it.each(["", "   ", "a\u0000b", "tab\there", "x".repeat(201)])("rejects q=%j", (raw) => {
    expect(badRequestMessage(() => parseQ(query(`q=${encodeURIComponent(raw)}`)))).toContain("'q'");
  });
  it("counts characters, not UTF-16 units", () => {
    expect(parseQ(query(`q=${encodeURIComponent("😀".repeat(200))}`))).toHaveLength(400);
  });
  it("requires them", () => {
    expect(badRequestMessage(() => parseQ(query("")))).toContain("Missing required parameter 'q'");
    expect(badRequestMessage(() => parseId(query("")))).toContain("Missing required parameter 'id'");
  });
  it("limits id length", () => {
    badRequestMessage(() => parseId(query(`id=${"9".repeat(65)}`)));
  });
});
