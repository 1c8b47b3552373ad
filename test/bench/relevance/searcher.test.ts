/**
 * The outside view's HTTP searcher (bench/relevance/searcher.ts) against a node:http server on
 * port 0 that answers with a real /geocode/search/2/json body of this project's server (the query
 * "Kunsan", limit 2, on the embedded default) and with its 401 error body.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpSearcher } from "../../../bench/relevance/searcher.ts";

const KUNSAN = `{"status":"OK","code":200,"content":{"total":4,"points":[{"id":"gn:1785623","name":"Kunshan","address":["Jiangsu","China"],"lat":31.37762,"lon":120.95431,"type":"seat of a third-order administrative division","ISO2":"CN"},{"id":"gn:1842025","name":"Gunsan","address":["Jeollabuk-do","South Korea"],"lat":35.97861,"lon":126.71139,"type":"populated place","ISO2":"KR"}]}}`;
// The spec's error body with the server's own 401 message (server/api/api-error.ts).
const UNAUTHORIZED = `{"status":"error","code":401,"message":"Missing or invalid API key: send a valid key in the X-Api-Key header."}`;

let server: Server;
let base = "";
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const ok = req.headers["x-api-key"] === "bench-key-0123456789";
    res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
    res.end(ok ? KUNSAN : UNAUTHORIZED);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("httpSearcher", () => {
  it("asks /geocode/search/2/json with the key and reads the GeoNames ids of the envelope's points", async () => {
    expect(await httpSearcher(base, "bench-key-0123456789")("Kunsan, Jeonbuk", 2)).toEqual([1785623, 1842025]);
    expect(seen.at(-1)!.url).toBe("/geocode/search/2/json?q=Kunsan%2C%20Jeonbuk&limit=2");
  });

  it("says which answer it got when it is not a 200", async () => {
    await expect(httpSearcher(base, "wrong")("Kunsan", 1)).rejects.toThrow(/expected 200, got 401: .*Missing or invalid API key/);
  });
});
