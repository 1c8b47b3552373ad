/**
 * The docs page in a real browser: headless Chromium (Debian's `chromium` package) driven by
 * playwright-core against the real service on the embedded-default data. The page loads without
 * console errors, search autocompletes, a map click fills the panels, the meteogram draws, the
 * station history is plotted, and the API reference renders from /openapi.json.
 * Without /usr/bin/chromium (or CHROMIUM_PATH) these tests skip and say so.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, sayWhenSkipped, type Chromium } from "../../helpers/chromium.ts";
import { ensureDefaultData } from "../../helpers/default-data.ts";
import { startTestServer, TEST_KEY, type TestServer } from "../../helpers/server.ts";

sayWhenSkipped("docs page browser tests");

describe.skipIf(!haveChromium)("docs page in headless Chromium", () => {
  let server: TestServer;
  let chromium: Chromium;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dataDir: await ensureDefaultData(["admin", "places", "elevation", "forecast", "stations"]) });
    chromium = await launchChromium({ width: 1200, height: 900 });
    page = chromium.browser.pages()[0] ?? (await chromium.browser.newPage());
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (err) => consoleErrors.push(err.message));
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("loads without console errors and draws the map from our polygons", async () => {
    const res = await page.goto(server.baseUrl + "/");
    expect(res?.status()).toBe(200);
    await page.waitForSelector("#map[data-state=drawn]");
    const countries = await page.locator("#countries path").count();
    expect(countries).toBeGreaterThan(100);
    await page.fill("#key", TEST_KEY);
    await page.click("#key-form button");
    // Browser-side code is passed as text: this project type-checks without the DOM library.
    expect(await page.evaluate(`sessionStorage.getItem("geodata.apiKey")`)).toBe(TEST_KEY);
    expect(consoleErrors).toEqual([]);
  });

  it("search autocompletes and a suggestion fills the panels", async () => {
    await page.fill("#search", "Berli");
    await page.waitForSelector("#suggestions li[data-i]");
    const first = await page.locator("#suggestions li[data-i]").first().textContent();
    // GeoNames: Berlin (gn:2950159), capital of Germany, is the most populous prefix match.
    expect(first).toContain("Berlin");
    expect(first).toContain("Germany");
    await page.locator("#suggestions li[data-i]").first().dispatchEvent("mousedown");
    await page.waitForSelector("#reverse-panel[data-state=ok]");
    expect(await page.locator("#reverse-panel").textContent()).toContain("Europe/Berlin");
  });

  it("a map click fills reverse geocoding, elevation and the forecast meteogram", async () => {
    // Click where Madrid is (40.42°N, 3.70°W): map the coordinates to the SVG's screen space.
    const point = await page.evaluate<{ x: number; y: number }>(`(() => {
      const svg = document.querySelector("#map");
      const p = svg.createSVGPoint();
      p.x = -3.7;
      p.y = -40.42;
      const s = p.matrixTransform(svg.getScreenCTM());
      return { x: s.x, y: s.y };
    })()`);
    await page.mouse.click(point.x, point.y);
    await page.waitForSelector("#reverse-panel[data-state=ok]");
    await page.waitForSelector("#elevation-panel[data-state=ok]");
    await page.waitForSelector("#forecast-panel[data-state=ok], #forecast-panel[data-state=error]");
    const reverse = await page.locator("#reverse-panel").textContent();
    expect(reverse).toContain("Spain");
    expect(reverse).toContain("Europe/Madrid");
    // Madrid's plateau: SRTM/ETOPO give several hundred metres, never sea level.
    const metres = Number(/elevation(-?\d+) m/.exec((await page.locator("#elevation-panel").textContent()) ?? "")?.[1]);
    expect(metres).toBeGreaterThan(300);
    expect(await page.getAttribute("#forecast-panel", "data-state")).toBe("ok");
    // The meteogram: a uPlot canvas with the three series in its legend, painted (not blank).
    await page.waitForSelector("#meteogram canvas");
    const legend = await page.locator("#meteogram .u-legend").textContent();
    for (const label of ["Temperature", "Precipitation", "Wind"]) expect(legend).toContain(label);
    const painted = await page.evaluate<{ width: number; height: number; red: number }>(`(() => {
      const c = document.querySelector("#meteogram canvas");
      const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let red = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 90) red++;
      return { width: c.width, height: c.height, red };
    })()`);
    expect(painted.width).toBeGreaterThan(300);
    expect(painted.red).toBeGreaterThan(50); // the temperature line's pixels (#d1242f)
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it("a forecast answering 503 is shown as unavailable, the other panels still fill", async () => {
    // The spec's error body as the service sends it when the forecast dataset is not loaded.
    await page.route("**/weather/point/2/json?*", (route) =>
      route.fulfill({ status: 503, contentType: "application/json; charset=utf-8", body: JSON.stringify({ status: "error", code: 503, message: "Service temporarily unavailable: dataset 'forecast' is not loaded (not built, or failed its checks); see GET /health." }) }),
    );
    await page.fill("#search", "Zürich");
    await page.waitForSelector("#suggestions li[data-i]");
    await page.locator("#suggestions li[data-i]").first().dispatchEvent("mousedown");
    await page.waitForSelector("#forecast-panel[data-state=error]");
    expect(await page.locator("#forecast-panel .meta").textContent()).toContain("Forecast unavailable (503: Service temporarily unavailable");
    expect(await page.locator("#meteogram canvas").count()).toBe(0);
    await page.waitForSelector("#elevation-panel[data-state=ok]");
    await page.unroute("**/weather/point/2/json?*");
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it("the station view plots the METAR history", async () => {
    await page.click(".tab[data-tab=stations]");
    await page.fill("#station-id", "KJFK");
    await page.click("#station-form button");
    await page.waitForSelector("#station-panel[data-state=ok]");
    expect(await page.locator("#station-panel .meta").textContent()).toMatch(/^\d+ observations/);
    await page.waitForSelector("#station-chart canvas");
  });

  it("the API reference renders /openapi.json", async () => {
    await page.click(".tab[data-tab=reference]");
    await page.waitForSelector("#swagger .opblock", { timeout: 60_000 });
    expect(await page.locator("#swagger").textContent()).toContain("/geocode/search/2/json");
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
