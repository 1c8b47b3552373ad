/**
 * The docs page's assets over a socket, without a browser: served without a key, from our folder
 * and from the npm packages, with validators; the world map from the admin dataset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

describe("docs page assets", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["admin"]) });
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("GET / is the page, without a key, revalidated by ETag", async () => {
    const res = await server.get("/", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<script src="/docs/app.js">');
    // Nothing is fetched from another host: every src/href is a path of ours.
    for (const m of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(m[1]).toMatch(/^(\/|data:)/);
    const again = await server.get("/", { key: null, headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("serves the vendor bundles from node_modules", async () => {
    for (const [p, type, marker] of [
      ["/docs/vendor/swagger-ui-bundle.js", "text/javascript; charset=utf-8", "SwaggerUIBundle"],
      ["/docs/vendor/uPlot.iife.min.js", "text/javascript; charset=utf-8", "uPlot"],
      ["/docs/vendor/uPlot.min.css", "text/css; charset=utf-8", ".uplot"],
    ] as const) {
      const res = await server.get(p, { key: null });
      expect(res.status, p).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(await res.text()).toContain(marker);
    }
  });

  it("the world map is GeoJSON of our countries", async () => {
    const res = await server.get("/docs/countries.geojson", { key: null });
    expect(res.status).toBe(200);
    const map = (await res.json()) as { type: string; features: Array<{ properties: { iso2: string }; geometry: { type: string; coordinates: number[][][][] } }> };
    expect(map.type).toBe("FeatureCollection");
    const de = map.features.find((f) => f.properties.iso2 === "DE")!;
    expect(de.geometry.type).toBe("MultiPolygon");
    // Germany lies within 5.8-15.1°E, 47.2-55.1°N (Natural Earth); every kept vertex must too.
    for (const polygon of de.geometry.coordinates) for (const ring of polygon) for (const [x, y] of ring) {
      expect(x).toBeGreaterThan(5.5);
      expect(x).toBeLessThan(15.5);
      expect(y).toBeGreaterThan(47);
      expect(y).toBeLessThan(55.5);
    }
  });

  it("other /docs paths are not ours: the key and 404 rules apply", async () => {
    expect((await server.get("/docs/nope", { key: null })).status).toBe(401);
    expect((await server.get("/docs/nope")).status).toBe(404);
  });
});
