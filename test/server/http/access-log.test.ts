/**
 * Access lines are their own stream: written whatever GEODATA_LOG_LEVEL says (the level filters the
 * server's diagnostics only), with the query redacted to the parameters the API defines.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { createAccessLogger, logAccess, redactTarget, type AccessRecord } from "../../../server/http/access-log.ts";

describe("access stream", () => {
  it("writes a request line at log level error, where the server logger drops info lines", () => {
    const config = readConfig({ GEODATA_LOG_LEVEL: "error" });
    const server: string[] = [];
    const access: string[] = [];
    createLogger({ minLevel: config.logLevel, sink: (l) => server.push(l) }).info("dataset loaded");
    logAccess(createAccessLogger((l) => access.push(l)), { method: "GET", url: "/geocode/search/2/json?q=Berlin&key=secret", route: "/geocode/search/2/json", status: 200, durationMs: 1.5, bytes: 120 });
    expect(server).toEqual([]);
    expect(access).toHaveLength(1);
    expect(JSON.parse(access[0]!)).toMatchObject({ level: "info", component: "access", msg: "request", path: "/geocode/search/2/json?q=Berlin&key=[redacted]", status: 200 });
  });

  it("writes the line a Logger would write for the same fields, in the same order", () => {
    const records: AccessRecord[] = [
      { method: "GET", url: "/geocode/search/2/json?q=Z%C3%BCrich%20%22x%22&limit=3", route: "/geocode/search/2/json", status: 200, durationMs: 0.12345, bytes: 813, remote: "::ffff:127.0.0.1" },
      { method: "HEAD", url: "/weather/METAR/2/json?id=EDDF", route: "/weather/METAR/2/json", status: 304, durationMs: 2, bytes: 0 },
      { method: "GET\"\n", url: "/nope\u2028?x=1", route: "unknown", status: 404, durationMs: 1e-7, bytes: 77, remote: undefined },
      // Targets given back as they are, and their near misses.
      { method: "GET", url: "/weather/point/2/json?lat=52.52&lon=-13.4", route: "/weather/point/2/json", status: 200, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: "/geocode/search/2/json?q=Sao_Paulo&limit=3&offset=0", route: "/geocode/search/2/json", status: 200, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: "/geocode/search/2/json?q=Berlin&&limit=3&lat", route: "/geocode/search/2/json", status: 400, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: "/x?q=a,b:c&apikey=secret", route: "unknown", status: 404, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: `/x?q=${"a".repeat(300)}`, route: "unknown", status: 404, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: `/${"p".repeat(600)}?id=1`, route: "unknown", status: 404, durationMs: 0.5, bytes: 100 },
      { method: "GET", url: "/x\\y?id=\"1\"", route: "unknown", status: 404, durationMs: 0.5, bytes: 100, remote: "10.0.0.1" },
    ];
    for (const record of records) {
      const ours: string[] = [];
      const reference: string[] = [];
      logAccess(createAccessLogger((l) => ours.push(l)), record);
      // The generic logger: the reference for the format of every line.
      createLogger({ minLevel: "debug", base: { component: "access" }, sink: (l) => reference.push(l) }).info("request", {
        method: record.method.slice(0, 16),
        path: redactTarget(record.url),
        route: record.route,
        status: record.status,
        durationMs: Math.round(record.durationMs * 1000) / 1000,
        bytes: record.bytes,
        remote: record.remote,
      });
      const withoutTime = (line: string) => line.replace(/^\{"time":"[^"]+",/, "{");
      expect(withoutTime(ours[0]!)).toBe(withoutTime(reference[0]!));
    }
  });
});

describe("redactTarget", () => {
  it("logs a place id's ':' as it is, whether the target is kept as it is or rebuilt", () => {
    expect(redactTarget("/geocode/id/2/json?id=gn:2950159")).toBe("/geocode/id/2/json?id=gn:2950159");
    // An unknown parameter makes the target rebuilt: the id reads the same.
    expect(redactTarget("/geocode/id/2/json?id=gn:2950159&token=s3cret")).toBe("/geocode/id/2/json?id=gn:2950159&token=[redacted]");
    // Escaped, it is decoded and logged the same way.
    expect(redactTarget("/weather/id/2/json?id=gn%3A2950159")).toBe("/weather/id/2/json?id=gn:2950159");
    // Other characters encodeURIComponent escapes are escaped still.
    expect(redactTarget("/geocode/search/2/json?q=a%2Fb:c")).toBe("/geocode/search/2/json?q=a%2Fb:c");
  });
});
