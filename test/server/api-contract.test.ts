/**
 * The HTTP contract that does not depend on data (issue 2), through a real socket: keys, methods,
 * paths, parameters, 503 while datasets are absent, HEAD, limits, compression, logs.
 * The server runs on an empty data directory, so every dataset is missing.
 */
import { promises as fs } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_KEY, startTestServer, TEST_KEY, type TestServer } from "../helpers/server.ts";

const LATLON_PATHS = ["/weather/point/2/json", "/geocode/reverse/2/json", "/elevation/point/2/json"];
const ID_PATHS = ["/weather/METAR/2/json", "/weather/SYNOP/2/json", "/geocode/id/2/json", "/weather/id/2/json"];
const SEARCH_PATH = "/geocode/search/2/json";
const ALL_PATHS = [...LATLON_PATHS, ...ID_PATHS, SEARCH_PATH];
const VALID_QUERY: Record<string, string> = {
  "/weather/point/2/json": "lat=52.52&lon=13.405",
  "/geocode/reverse/2/json": "lat=52.52&lon=13.405",
  "/elevation/point/2/json": "lat=52.52&lon=13.405",
  "/weather/METAR/2/json": "id=EDDF",
  "/weather/SYNOP/2/json": "id=10637",
  "/geocode/id/2/json": "id=gn:2950159",
  "/weather/id/2/json": "id=gn:2950159",
  "/geocode/search/2/json": "q=Berlin",
};
const DATASETS_OF: Record<string, string[]> = {
  "/weather/point/2/json": ["forecast"],
  "/geocode/reverse/2/json": ["admin", "places"],
  "/elevation/point/2/json": ["elevation"],
  "/weather/METAR/2/json": ["stations"],
  "/weather/SYNOP/2/json": ["stations"],
  "/geocode/id/2/json": ["places"],
  "/weather/id/2/json": ["places", "forecast"],
  "/geocode/search/2/json": ["places"],
};

let server: TestServer;
let emptyDir: string;

beforeAll(async () => {
  emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), "geodata-empty-"));
  server = await startTestServer({ dataDir: emptyDir });
});

afterAll(async () => {
  await server.close();
  await fs.rm(emptyDir, { recursive: true, force: true });
});

async function expectErrorBody(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const text = await res.text();
  expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  const body = JSON.parse(text) as Record<string, unknown>;
  // Exactly the spec's error body: status "error", the numeric code, a message; nothing else.
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
  expect(body.status).toBe("error");
  expect(body.code).toBe(status);
  expect(typeof body.message).toBe("string");
  expect((body.message as string).length).toBeGreaterThan(0);
  return body.message as string;
}

describe.each(ALL_PATHS)("%s", (p) => {
  const valid = `${p}?${VALID_QUERY[p]}`;

  it("401 without a key", async () => {
    await expectErrorBody(await server.get(valid, { key: null }), 401);
  });
  it("401 with a wrong key", async () => {
    await expectErrorBody(await server.get(valid, { key: "wrong-key-0123456789abcdef" }), 401);
  });
  it("401 with an empty key", async () => {
    await expectErrorBody(await server.get(valid, { key: "" }), 401);
  });
  it("503 naming the missing dataset, with either configured key", async () => {
    for (const key of [TEST_KEY, OTHER_KEY]) {
      const message = await expectErrorBody(await server.get(valid, { key }), 503);
      for (const d of DATASETS_OF[p]!) expect(message).toContain(`'${d}'`);
    }
  });
  it("405 with Allow for other methods", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const res = await server.get(valid, { method });
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      await expectErrorBody(res, 405);
    }
  });
  it("HEAD: same status and headers, no body", async () => {
    const get = await server.get(valid);
    const getText = await get.text();
    const head = await server.get(valid, { method: "HEAD" });
    expect(head.status).toBe(get.status);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(getText)));
    expect(await head.text()).toBe("");
  });
  it("400 for an unknown parameter", async () => {
    expect(await expectErrorBody(await server.get(`${valid}&foo=1`), 400)).toContain('"foo"');
  });
});

describe("malformed parameters (400 naming the parameter and the value)", () => {
  const latlonCases: Array<[string, string, string]> = [
    ["lat=&lon=1", "lat", '""'],
    ["lat=abc&lon=1", "lat", '"abc"'],
    ["lat=NaN&lon=1", "lat", '"NaN"'],
    ["lat=Infinity&lon=1", "lat", '"Infinity"'],
    ["lat=-Infinity&lon=1", "lat", '"-Infinity"'],
    ["lat=0x1A&lon=1", "lat", '"0x1A"'],
    ["lat=1e999&lon=1", "lat", '"1e999"'],
    ["lat=1e1&lon=1", "lat", '"1e1"'],
    ["lat=12abc&lon=1", "lat", '"12abc"'],
    ["lat=91&lon=1", "lat", '"91"'],
    ["lat=-90.5&lon=1", "lat", '"-90.5"'],
    ["lat=1&lon=180.01", "lon", '"180.01"'],
    ["lat=1&lon=-181", "lon", '"-181"'],
    ["lat=1&lon=1,5", "lon", '"1,5"'],
    ["lat=1&lon=%201", "lon", '" 1"'],
    ["lat=1&lon=1%00", "lon", '"1\\u0000"'],
    ["lat=1&lon=--1", "lon", '"--1"'],
    ["lat=1.2.3&lon=1", "lat", '"1.2.3"'],
    ["lat=1&lat=2&lon=1", "lat", "2 times"],
    ["lon=1", "lat", "Missing"],
    ["lat=1", "lon", "Missing"],
    ["", "lat", "Missing"],
    ["lat=%E2%88%9E&lon=1", "lat", '"∞"'],
    ["lat=1&lon=1&lng=2", "lng", '"lng"'],
  ];
  it.each(latlonCases)("/elevation/point/2/json?%s", async (qs, param, shown) => {
    const message = await expectErrorBody(await server.get(`/elevation/point/2/json?${qs}`), 400);
    expect(message).toContain(param);
    expect(message).toContain(shown);
  });

  const searchCases: Array<[string, string, string]> = [
    ["q=", "q", '""'],
    ["q=%20%20", "q", '"  "'],
    ["", "q", "Missing"],
    ["q=a&limit=-1", "limit", '"-1"'],
    ["q=a&limit=101", "limit", '"101"'],
    ["q=a&limit=1.5", "limit", '"1.5"'],
    ["q=a&limit=ten", "limit", '"ten"'],
    ["q=a&offset=-3", "offset", '"-3"'],
    ["q=a&offset=1e3", "offset", '"1e3"'],
    ["q=a&q=b", "q", "2 times"],
    [`q=${"x".repeat(201)}`, "q", "xxxx"],
    ["q=a%0Ab", "q", '"a\\nb"'],
  ];
  it.each(searchCases)("/geocode/search/2/json?%s", async (qs, param, shown) => {
    const message = await expectErrorBody(await server.get(`/geocode/search/2/json?${qs}`), 400);
    expect(message).toContain(`'${param}'`);
    expect(message).toContain(shown);
  });

  it.each(ID_PATHS)("%s without id, with an empty id, with a repeated id", async (p) => {
    expect(await expectErrorBody(await server.get(p), 400)).toContain("'id'");
    expect(await expectErrorBody(await server.get(`${p}?id=`), 400)).toContain("'id'");
    expect(await expectErrorBody(await server.get(`${p}?id=%20`), 400)).toContain("'id'");
    expect(await expectErrorBody(await server.get(`${p}?id=a&id=b`), 400)).toContain("2 times");
  });
});

describe("paths and limits", () => {
  it("404 for an unknown path with a valid key", async () => {
    // "/" is the docs page (no key; test/server/docs-page/); an unknown path under /docs is still a 404.
    for (const p of ["/docs/nope", "/weather/point/1/json", "/weather/point/2/xml", "/weather/point/2/json/", "/WEATHER/point/2/json", "/nope"]) {
      expect(await expectErrorBody(await server.get(p), 404)).toContain("No such endpoint");
    }
  });
  it("401 (not 404) for an unknown path without a key", async () => {
    await expectErrorBody(await server.get("/nope", { key: null }), 401);
  });
  it("414 for a URL over 8 KB", async () => {
    const message = await expectErrorBody(await server.get(`/geocode/search/2/json?q=${"a".repeat(8200)}`), 414);
    expect(message).toContain("8192");
  });
  it("413 for a request with a body", async () => {
    // fetch() cannot send a GET body; a raw socket can.
    const raw = await rawRequest(`GET /geocode/search/2/json?q=a HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${TEST_KEY}\r\nContent-Length: 5\r\n\r\nhello`);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
  });
  it("431 for oversized headers, 400 for a malformed request line, and the server keeps serving", async () => {
    const big = await rawRequest(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    const bad = await rawRequest("NOT A REQUEST\r\n\r\n");
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect((await server.get("/health", { key: null })).status).toBe(200);
  });
});

function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(server.baseUrl).port), "127.0.0.1");
    let out = "";
    socket.on("data", (d) => (out += d.toString("latin1")));
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", (err) => (out ? resolve(out) : reject(err)));
    socket.write(text);
    setTimeout(() => socket.end(), 500);
  });
}

describe("public paths", () => {
  it("/health needs no key and reports every dataset", async () => {
    const res = await server.get("/health", { key: null });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; code: number; content: { state: string; datasets: Array<{ name: string; status: string; message: string }> } };
    expect(body.status).toBe("OK");
    expect(body.code).toBe(200);
    expect(body.content.state).toBe("degraded");
    expect(body.content.datasets.map((d) => d.name).sort()).toEqual(["admin", "elevation", "forecast", "places", "stations"]);
    for (const d of body.content.datasets) {
      expect(d.status).toBe("missing");
      expect(d.message).toContain("not built");
    }
  });
  it("/openapi.json needs no key and documents the eight paths, the key header and both bodies", async () => {
    const res = await server.get("/openapi.json", { key: null });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown>; components: { securitySchemes: { ApiKey: { name: string; in: string } }; schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe("3.1.0");
    for (const p of ALL_PATHS) expect(doc.paths[p]).toBeDefined();
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ name: "X-Api-Key", in: "header" });
    expect(doc.components.schemas.Error).toBeDefined();
  });
  it("POST /health is still a 405", async () => {
    await expectErrorBody(await server.get("/health", { method: "POST", key: null }), 405);
  });
});

describe("compression", () => {
  it("brotli, then gzip, when accepted and the body is over 1 KB", async () => {
    // Node's fetch decodes transparently but keeps the header.
    const br = await server.get("/openapi.json", { key: null, headers: { "Accept-Encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(((await br.json()) as { openapi: string }).openapi).toBe("3.1.0");
    const gz = await server.get("/openapi.json", { key: null, headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    await gz.arrayBuffer();
    const plain = await server.get("/openapi.json", { key: null, headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    await plain.arrayBuffer();
  });
  it("small bodies are not compressed", async () => {
    const res = await server.get("/nope", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    await res.text();
  });
});

describe("logs", () => {
  it("one JSON line per request, without any key", async () => {
    const before = server.logLines.length;
    await (await server.get("/geocode/search/2/json?q=Paris&token=hunter2-secret")).text();
    await (await server.get("/geocode/search/2/json?q=Paris", { key: "wrong-but-secret-value-1234" })).text();
    const lines = server.logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: "GET", status: 400, route: "/geocode/search/2/json" });
    expect(typeof requests[0]!.durationMs).toBe("number");
    const all = server.logLines.join("\n");
    for (const secret of [TEST_KEY, OTHER_KEY, "wrong-but-secret-value-1234", "hunter2-secret"]) expect(all).not.toContain(secret);
  });
});
