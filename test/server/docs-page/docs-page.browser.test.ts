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

  it("the station view breaks the line over days without reports (KJFK: 2025-09-10 04:51 to 09-12 04:51)", async () => {
    // The embedded default's KJFK history has 17 observations over 3.3 days and nothing from
    // 2025-09-10T04:51 to 09-12T04:51 (the aviationweather.gov hours it was cut from).
    expect(await page.locator("#station-panel .meta").textContent()).toContain("17 observations, 2025-09-09T14:51 to 2025-09-12T21:51 UTC (2 gaps without reports)");
    const columns = await page.evaluate<{ first: number; last: number; longestEmpty: number }>(`(() => {
      const c = document.querySelector("#station-chart canvas");
      const { width, height, data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      const red = [];
      for (let x = 0; x < width; x++) {
        let n = 0;
        for (let y = 0; y < height; y++) {
          const i = (y * width + x) * 4;
          if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 90) n++;
        }
        red.push(n > 0);
      }
      const first = red.indexOf(true), last = red.lastIndexOf(true);
      let longestEmpty = 0, run = 0;
      for (let x = first; x <= last; x++) { run = red[x] ? 0 : run + 1; longestEmpty = Math.max(longestEmpty, run); }
      return { first, last, longestEmpty };
    })()`);
    // 48 of the 79 hours drawn have no report: the temperature line leaves them blank (joined
    // across, red pixels would run through).
    expect(columns.last - columns.first).toBeGreaterThan(300);
    expect(columns.longestEmpty / (columns.last - columns.first)).toBeGreaterThan(0.45);
  });

  it("Berlin's single step (the 2.5° sample, 2011-10-08 +72 h) is one point on a one-day axis, with a note that the run is old", async () => {
    await page.click(".tab[data-tab=playground]");
    await page.fill("#search", "Berlin");
    await page.waitForSelector("#suggestions li[data-i]");
    await page.locator("#suggestions li[data-i]").first().dispatchEvent("mousedown");
    await page.waitForSelector("#forecast-panel[data-state=ok]");
    const meta = await page.locator("#forecast-panel .meta").textContent();
    expect(meta).toMatch(/^1 step · model gfs-2p5-sample · run 2011-10-08/);
    expect(meta).toContain("Sample run of 2011-10-08");
    expect(meta).toContain("npm run nightly -- --profile light for today's forecast");
    await page.waitForSelector("#meteogram canvas");
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
    const red = await page.evaluate<{ width: number; pixels: number; meanX: number }>(`(() => {
      const c = document.querySelector("#meteogram canvas");
      const { width, height, data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      let pixels = 0, sumX = 0;
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (data[i] > 180 && data[i + 1] < 80 && data[i + 2] < 90) { pixels++; sumX += x; }
      }
      return { width, pixels, meanX: pixels ? sumX / pixels : -1 };
    })()`);
    // The temperature point is drawn, in the middle of the axis (centred on its day), not at
    // the left end of an axis of years.
    expect(red.pixels).toBeGreaterThan(10);
    expect(red.meanX / red.width).toBeGreaterThan(0.3);
    expect(red.meanX / red.width).toBeLessThan(0.7);
    // Hovering the point shows its time: 2011-10-11 00Z = 02:00 in Berlin (CEST).
    await page.locator("#meteogram canvas").scrollIntoViewIfNeeded();
    const box = (await page.locator("#meteogram canvas").boundingBox())!;
    const scale = red.width / box.width;
    await page.mouse.move(box.x + red.meanX / scale - 5, box.y + box.height / 2);
    await page.mouse.move(box.x + red.meanX / scale, box.y + box.height / 2, { steps: 3 });
    await expect.poll(() => page.locator("#meteogram .u-legend").textContent()).toMatch(/Time2011-10-11 2:00am/);
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it("a forecast of a recent run carries no note", async () => {
    // The same answer, as if its run were from an hour ago.
    await page.route("**/weather/point/2/json?*", async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, headers: { ...res.headers(), "x-forecast-run": new Date(Date.now() - 3_600_000).toISOString() } });
    });
    await page.fill("#search", "Zürich");
    await page.waitForSelector("#suggestions li[data-i]");
    await page.locator("#suggestions li[data-i]").first().dispatchEvent("mousedown");
    await page.waitForSelector("#forecast-panel[data-state=ok]");
    expect(await page.locator("#forecast-panel .meta").textContent()).not.toMatch(/run of|profile light/);
    await page.unroute("**/weather/point/2/json?*");
  });

  it("the API reference renders /openapi.json", async () => {
    await page.click(".tab[data-tab=reference]");
    await page.waitForSelector("#swagger .opblock", { timeout: 60_000 });
    expect(await page.locator("#swagger").textContent()).toContain("/geocode/search/2/json");
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
