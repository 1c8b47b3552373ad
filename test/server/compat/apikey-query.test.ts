/**
 * The other APIs' endpoints take the key from the `apikey` query parameter too (the openmeteo SDK
 * sends it so), and no log line ever shows it: for each such endpoint, a valid key and a wrong
 * one, given only in the query. The spec's endpoints still want the header.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPAT_ENDPOINTS } from "../../../server/endpoints/routes.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";

/** A query each endpoint answers 200 (the key is appended). */
const QUERIES: Record<string, string> = {
  "/v1/forecast": "latitude=40.4&longitude=-3.7&hourly=temperature_2m",
  "/v1/elevation": "latitude=40.4&longitude=-3.7",
  "/v1/search": "name=Madrid",
  "/api": "q=Madrid",
  "/api/": "q=Madrid",
  "/reverse": "lat=40.4&lon=-3.7",
  "/reverse/": "lat=40.4&lon=-3.7",
};
const WRONG_KEY = "wrong-key-but-secret-0123456789";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dataDir: await ensureDefaultData(["elevation", "admin", "places", "forecast"]) });
}, 600_000);
afterAll(async () => server?.close());

describe("the apikey query parameter", () => {
  it("every compatible endpoint has a query here", () => {
    expect(COMPAT_ENDPOINTS.map((e) => e.path).sort()).toEqual(Object.keys(QUERIES).sort());
  });

  it.each(Object.entries(QUERIES))("%s: a valid key in the query answers, a wrong one is a 401 in the API's shape, and neither is logged", async (path, query) => {
    const before = server.logLines.length;
    const ok = await server.get(`${path}?${query}&apikey=${TEST_KEY}`, { key: null });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const denied = await server.get(`${path}?apikey=${WRONG_KEY}&${query}`, { key: null });
    expect(denied.status).toBe(401);
    const body = (await denied.json()) as Record<string, unknown>;
    // Open-Meteo's {"error": true, "reason"} or Photon's {"message"}.
    expect(path.startsWith("/v1/") ? Object.keys(body).sort() : Object.keys(body)).toEqual(path.startsWith("/v1/") ? ["error", "reason"] : ["message"]);
    const lines = server.logLines.slice(before);
    // The 401 is answered before the route is known: its line's route is "unknown", its path ours.
    const access = lines.filter((l) => l.includes('"component":"access"') && l.includes(`"path":"${path}?`));
    expect(access).toHaveLength(2);
    for (const line of access) expect(line).toContain("apikey=[redacted]");
    for (const line of lines) {
      expect(line).not.toContain(TEST_KEY);
      expect(line).not.toContain(WRONG_KEY);
    }
  });

  it("a key in the header wins over the query's", async () => {
    const r = await server.get(`/v1/elevation?latitude=40.4&longitude=-3.7&apikey=${WRONG_KEY}`);
    expect(r.status).toBe(200);
  });

  it("the spec's endpoints do not take it: a 401 in the spec's body, the key not logged", async () => {
    const before = server.logLines.length;
    const r = await server.get(`/elevation/point/2/json?lat=40.4&lon=-3.7&apikey=${TEST_KEY}`, { key: null });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { status: string }).status).toBe("error");
    for (const line of server.logLines.slice(before)) expect(line).not.toContain(TEST_KEY);
  });
});
