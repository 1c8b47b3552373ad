/**
 * Photon's /api and /reverse driven by their real client: leaflet-control-geocoder's Photon
 * geocoder (with Leaflet) on a test page this test serves from another origin, in headless
 * Chromium (Debian's `chromium`, driven by playwright-core). A search typed in the control and a
 * reverse geocode of a map click complete and show our results (the library builds the names
 * from the properties it reads: name, state, country). The key travels as `apikey`, as a page
 * must send it (the library sends no custom header).
 * Without /usr/bin/chromium (or CHROMIUM_PATH) these tests skip and say so.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../datasets/common/paths.ts";
import { haveChromium, launchChromium, sayWhenSkipped, type Chromium } from "../../helpers/chromium.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";

sayWhenSkipped("leaflet-control-geocoder browser tests");

const asset = (file: string): Buffer => readFileSync(path.join(PROJECT_ROOT, "node_modules", file));

function page(api: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Photon client test</title>
<link rel="stylesheet" href="/leaflet.css"><link rel="stylesheet" href="/geocoder.css">
<style>#map{width:800px;height:600px}</style></head><body><div id="map"></div>
<script src="/leaflet.js"></script><script src="/geocoder.js"></script>
<script>
  // No tile layer: the test machine has no network. The view covers central Europe.
  const map = (window.testMap = L.map("map").setView([50, 10], 5));
  const geocoder = L.Control.Geocoder.photon({
    serviceUrl: ${JSON.stringify(api + "/api/")},
    reverseUrl: ${JSON.stringify(api + "/reverse/")},
    geocodingQueryParams: { apikey: ${JSON.stringify(TEST_KEY)} },
    reverseQueryParams: { apikey: ${JSON.stringify(TEST_KEY)} },
  });
  // Suggestions while typing off: the search is the one the Enter key starts.
  const control = L.Control.geocoder({ geocoder, collapsed: false, suggestMinLength: 1000 }).addTo(map);
  control.on("finishgeocode", (e) => { document.body.dataset.found = String(e.results.length); });
  // A map click reverse geocodes, as the library's examples do, and shows the answer in a popup.
  map.on("click", async (e) => {
    const results = await geocoder.reverse(e.latlng, map.options.crs.scale(map.getZoom()));
    const r = results[0];
    document.body.dataset.reversed = r ? r.name : "";
    if (r) L.popup().setLatLng(r.center).setContent(r.name).openOn(map);
  });
</script></body></html>`;
}

describe.skipIf(!haveChromium)("leaflet-control-geocoder's Photon geocoder in headless Chromium", () => {
  let server: TestServer;
  let site: Server;
  let siteUrl: string;
  let chromium: Chromium;
  let tab: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["admin", "places"]) });
    const files: Record<string, [string, Buffer]> = {
      "/": ["text/html; charset=utf-8", Buffer.from(page(server.baseUrl))],
      "/leaflet.js": ["text/javascript", asset("leaflet/dist/leaflet.js")],
      "/leaflet.css": ["text/css", asset("leaflet/dist/leaflet.css")],
      "/geocoder.js": ["text/javascript", asset("leaflet-control-geocoder/dist/Control.Geocoder.js")],
      "/geocoder.css": ["text/css", asset("leaflet-control-geocoder/dist/Control.Geocoder.css")],
    };
    for (const image of ["marker-icon.png", "marker-icon-2x.png", "marker-shadow.png"]) files[`/images/${image}`] = ["image/png", asset(`leaflet/dist/images/${image}`)];
    files["/favicon.ico"] = ["image/x-icon", Buffer.alloc(0)];
    site = createServer((req, res) => {
      const file = files[req.url ?? ""];
      res.writeHead(file ? 200 : 404, { "Content-Type": file ? file[0] : "text/plain" }).end(file ? file[1] : "");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    chromium = await launchChromium({ width: 1000, height: 800 });
    tab = chromium.browser.pages()[0] ?? (await chromium.browser.newPage());
    tab.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    tab.on("pageerror", (err) => consoleErrors.push(err.message));
    const res = await tab.goto(siteUrl);
    expect(res?.status()).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
    await new Promise((resolve) => site?.close(resolve));
    await server?.close();
  });

  it("a search typed in the control lists our places, and choosing one marks it", async () => {
    await tab.fill(".leaflet-control-geocoder-form input", "Berlin");
    await tab.press(".leaflet-control-geocoder-form input", "Enter");
    await tab.waitForSelector("body[data-found]");
    await tab.waitForSelector(".leaflet-control-geocoder-alternatives li");
    const names = await tab.locator(".leaflet-control-geocoder-alternatives li").allTextContents();
    // GeoNames: Berlin (gn:2950159), in the admin-1 area GeoNames calls "State of Berlin", first by population.
    expect(names[0]).toBe("Berlin, State of Berlin, Germany");
    expect(names.length).toBeGreaterThan(1);
    await tab.locator(".leaflet-control-geocoder-alternatives li").first().dispatchEvent("mousedown");
    await tab.waitForSelector(".leaflet-popup-content");
    expect(await tab.locator(".leaflet-popup-content").textContent()).toBe("Berlin, State of Berlin, Germany");
    expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
  });

  it("a map click reverse geocodes to our admin-1 area and country", async () => {
    // Click where Munich is (48.14°N, 11.58°E): Bavaria. The search zoomed in on Berlin: back to the whole view first.
    const point = await tab.evaluate<{ x: number; y: number }>(`(() => {
      window.testMap.closePopup();
      window.testMap.setView([50, 10], 5, { animate: false });
      const p = window.testMap.latLngToContainerPoint([48.14, 11.58]);
      const box = document.getElementById("map").getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y };
    })()`);
    await tab.mouse.click(point.x, point.y);
    await tab.waitForFunction(`document.body.dataset.reversed !== undefined`);
    expect(await tab.evaluate(`document.body.dataset.reversed`)).toBe("Bavaria, Germany");
    await tab.waitForFunction(`document.querySelector(".leaflet-popup-content")?.textContent === "Bavaria, Germany"`);
    expect(consoleErrors).toEqual([]);
  });
});
