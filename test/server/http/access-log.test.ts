/**
 * Access lines are their own stream: written whatever GEODATA_LOG_LEVEL says (the level filters the
 * server's diagnostics only), with the query redacted to the parameters the API defines.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { createAccessLogger, logAccess } from "../../../server/http/access-log.ts";

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
});
