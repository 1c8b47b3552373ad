/**
 * CORS as a browser enforces it: a page served from another origin calls the API with fetch() and
 * its key in X-Api-Key (so Chromium sends a preflight first) and reads our own headers
 * (X-Elevation-Source, X-Forecast-Model, ETag) and the error bodies. The server's side is tested
 * through a socket in cors.test.ts; this is the check that `Access-Control-Expose-Headers: *`
 * exposes them in a real browser (headless Chromium, Debian's `chromium`, driven by playwright-core).
 * Without /usr/bin/chromium (or CHROMIUM_PATH) these tests skip and say so.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, sayWhenSkipped, type Chromium } from "../../helpers/chromium.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";

sayWhenSkipped("CORS browser tests");

interface Read {
  status: number;
  /** The headers the page can read, lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** A fetch from the page: what its script can read of the answer, or the error a refused answer gives. */
function readFrom(tab: Page, url: string, key: string): Promise<Read | { refused: string }> {
  return tab.evaluate(
    async ([target, apiKey]) => {
      try {
        const res = await fetch(target!, { headers: { "X-Api-Key": apiKey! } });
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => (headers[name] = value));
        return { status: res.status, headers, body: await res.text() };
      } catch (err) {
        return { refused: String(err) };
      }
    },
    [url, key],
  );
}

describe.skipIf(!haveChromium)("CORS in headless Chromium", () => {
  let site: Server;
  let siteOrigin: string;
  let chromium: Chromium;
  let tab: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await ensureDefaultData(["elevation", "forecast", "admin"]);
    site = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<!doctype html><title>another origin</title>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    chromium = await launchChromium({ width: 800, height: 600 });
    tab = chromium.browser.pages()[0] ?? (await chromium.browser.newPage());
    expect((await tab.goto(`${siteOrigin}/`))?.status()).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  describe("any origin (the default)", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dataDir });
    });
    afterAll(async () => {
      await server.close();
    });

    it("a page reads an elevation answer, its X-Elevation-Source and ETag", async () => {
      // The server on 127.0.0.1 under another port: another origin (the port is part of it).
      const read = await readFrom(tab, `${server.baseUrl}/elevation/point/2/json?lat=46.5&lon=7.9`, TEST_KEY);
      expect(read).toMatchObject({ status: 200 });
      const { headers, body } = read as Read;
      expect(headers["x-elevation-source"]).toMatch(/^[a-z0-9]+;[a-z0-9]+$/);
      expect(headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(JSON.parse(body).content.elevation.unit).toBe("m");
    });

    it("a page reads a forecast's X-Forecast-* headers", async () => {
      const read = await readFrom(tab, `${server.baseUrl}/weather/point/2/json?lat=52.52&lon=13.4`, TEST_KEY);
      expect(read).toMatchObject({ status: 200 });
      const { headers } = read as Read;
      expect(headers["x-forecast-model"]).toBeTruthy();
      expect(headers["x-forecast-run"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it("a page reads a 401's status and error body, though it read a 200 of the same URL before", async () => {
      // The 200 of the first test is in Chromium's cache (public, max-age=86400): Vary: X-Api-Key
      // keeps it from answering a request with another key.
      const read = await readFrom(tab, `${server.baseUrl}/elevation/point/2/json?lat=46.5&lon=7.9`, "not-a-valid-key-0000");
      expect(read).toMatchObject({ status: 401 });
      expect(JSON.parse((read as Read).body)).toMatchObject({ status: "error", code: 401 });
    });
  });

  describe("a list of origins", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dataDir, env: { GEODATA_CORS_ORIGINS: `${siteOrigin}, https://maps.example.org` } });
    });
    afterAll(async () => {
      await server.close();
    });

    it("a listed origin reads the answer and its headers", async () => {
      const read = await readFrom(tab, `${server.baseUrl}/elevation/point/2/json?lat=46.5&lon=7.9`, TEST_KEY);
      expect(read).toMatchObject({ status: 200 });
      expect((read as Read).headers["x-elevation-source"]).toBeTruthy();
    });
  });

  describe("another list, without the page's origin", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dataDir, env: { GEODATA_CORS_ORIGINS: "https://maps.example.org" } });
    });
    afterAll(async () => {
      await server.close();
    });

    it("the browser refuses the answer", async () => {
      const read = await readFrom(tab, `${server.baseUrl}/elevation/point/2/json?lat=46.5&lon=7.9`, TEST_KEY);
      expect(read).toMatchObject({ refused: expect.stringContaining("TypeError") });
    });
  });
});
