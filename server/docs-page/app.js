/* Geodata docs page and playground. Plain browser JavaScript, no build step; uPlot is served by
 * the API itself (/docs/vendor), as is Swagger UI, loaded when the reference tab is opened. */
"use strict";
(function () {
  const KEY_STORAGE = "geodata.apiKey";
  const $ = (sel) => document.querySelector(sel);
  const text = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  // --- key -------------------------------------------------------------------------------------
  const keyInput = $("#key");
  const keyState = $("#key-state");
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) || "";
  function currentKey() { return sessionStorage.getItem(KEY_STORAGE) || ""; }
  function showKeyState() { keyState.textContent = currentKey() ? "key set for this tab" : "no key: API calls will answer 401"; }
  $("#key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, keyInput.value.trim());
    showKeyState();
  });
  showKeyState();

  /** GET an API path with the key; resolves to { status, body, headers } and never rejects on HTTP errors. */
  async function api(path) {
    const res = await fetch(path, { headers: { "X-Api-Key": currentKey() } });
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    return { status: res.status, body, headers: res.headers };
  }
  const errorText = (r) => `${r.status}: ${r.body && r.body.message ? r.body.message : "no answer"}`;
  function setPanel(id, state, html) {
    const el = $(id);
    el.dataset.state = state;
    el.querySelector(".body").innerHTML = html;
  }

  // --- tabs ------------------------------------------------------------------------------------
  let referenceLoaded = false;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => {
      for (const t of document.querySelectorAll(".tab")) {
        const on = t === tab;
        t.setAttribute("aria-selected", String(on));
        document.getElementById(t.dataset.tab).hidden = !on;
      }
      if (tab.dataset.tab === "reference" && !referenceLoaded) { referenceLoaded = true; loadReference(); }
    });
  }

  function loadReference() {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/docs/vendor/swagger-ui.css";
    document.head.appendChild(css);
    const script = document.createElement("script");
    script.src = "/docs/vendor/swagger-ui-bundle.js";
    script.onload = () => {
      // "Try it out" sends the key of this tab.
      window.SwaggerUIBundle({
        url: "/openapi.json",
        dom_id: "#swagger",
        deepLinking: false,
        tryItOutEnabled: true,
        requestInterceptor: (req) => { if (currentKey()) req.headers["X-Api-Key"] = currentKey(); return req; },
      });
    };
    document.body.appendChild(script);
  }

  // --- map -------------------------------------------------------------------------------------
  const svg = $("#map");
  const marker = $("#marker");
  async function drawMap() {
    const state = $("#map-state");
    const res = await fetch("/docs/countries.geojson");
    if (!res.ok) { state.textContent = "No map: the admin dataset is not loaded (see /health). Search still works."; return; }
    const map = await res.json();
    const parts = [];
    for (const f of map.features) {
      let d = "";
      for (const polygon of f.geometry.coordinates) {
        for (const ring of polygon) d += "M" + ring.map((p) => p[0] + "," + -p[1]).join("L") + "Z";
      }
      parts.push(`<path d="${d}"><title>${text(f.properties.iso2)}</title></path>`);
    }
    $("#countries").innerHTML = parts.join("");
    svg.dataset.state = "drawn";
    state.textContent = `${map.features.length} countries from our admin dataset. Click a point.`;
  }
  svg.addEventListener("click", (e) => {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const lon = Math.max(-180, Math.min(180, p.x));
    const lat = Math.max(-90, Math.min(90, -p.y));
    selectPoint(Number(lat.toFixed(4)), Number(lon.toFixed(4)), null);
  });

  // --- a point: reverse geocoding, elevation, forecast -------------------------------------------
  function selectPoint(lat, lon, label) {
    marker.setAttribute("cx", String(lon));
    marker.setAttribute("cy", String(-lat));
    marker.hidden = false;
    marker.removeAttribute("hidden");
    setPanel("#point-panel", "ok", `<dl><dt>lat</dt><dd>${lat}</dd><dt>lon</dt><dd>${lon}</dd>${label ? `<dt>place</dt><dd>${text(label)}</dd>` : ""}</dl>`);
    const q = `lat=${lat}&lon=${lon}`;
    loadReverse(q);
    loadElevation(q);
    loadForecast(q);
  }

  async function loadReverse(q) {
    setPanel("#reverse-panel", "loading", "Loading…");
    const r = await api(`/geocode/reverse/2/json?${q}`);
    if (r.status !== 200) return setPanel("#reverse-panel", "error", `<span class="error">${text(errorText(r))}</span>`);
    const a = r.body.content.administrative || {};
    const rows = [];
    if (a.country) rows.push(["country", `${a.country.name.EN} (${a.country.ISO2})`]);
    if (a.administrative1) rows.push(["admin-1", `${a.administrative1.name} (${a.administrative1.code})`]);
    if (a.continent) rows.push(["continent", a.continent.name.EN]);
    if (a.timezone) rows.push(["timezone", a.timezone.timezone], ["local time", a.timezone.timeFormatted], ["sunrise", a.timezone.sunrise], ["sunset", a.timezone.sunset]);
    setPanel("#reverse-panel", "ok", `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${text(v)}</dd>`).join("")}</dl>`);
  }

  async function loadElevation(q) {
    setPanel("#elevation-panel", "loading", "Loading…");
    const r = await api(`/elevation/point/2/json?${q}`);
    if (r.status !== 200) return setPanel("#elevation-panel", "error", `<span class="error">${text(errorText(r))}</span>`);
    const e = r.body.content.elevation;
    setPanel("#elevation-panel", "ok", `<dl><dt>elevation</dt><dd>${text(e.value)} ${text(e.unit)}</dd><dt>source</dt><dd>${text(r.headers.get("X-Elevation-Source") || "")}</dd></dl>`);
  }

  // --- charts ----------------------------------------------------------------------------------
  const HOUR = 3600;
  /**
   * Indexes i where the time from xs[i - 1] to xs[i] is a gap in the data (a station silent for
   * a day, steps left out of a run): over 6 hours and at least twice the usual (median) spacing.
   */
  function timeGaps(xs) {
    const steps = [];
    for (let i = 1; i < xs.length; i++) steps.push(xs[i] - xs[i - 1]);
    const usual = steps.slice().sort((a, b) => a - b)[Math.floor(steps.length / 2)] || 0;
    const out = [];
    for (let i = 1; i < xs.length; i++) if (steps[i - 1] > 6 * HOUR && steps[i - 1] >= 2 * usual) out.push(i);
    return out;
  }
  /**
   * A line series' gaps for uPlot: the time gaps, plus the missing values unless `spanNulls`
   * (a report without this value is joined over, a day without reports is not).
   */
  function lineGaps(xs, spanNulls) {
    const breaks = timeGaps(xs);
    return (u, _seriesIdx, idx0, idx1, nullGaps) => {
      const gaps = spanNulls ? [] : nullGaps.slice();
      for (const i of breaks) if (i > idx0 && i <= idx1) gaps.push([Math.round(u.valToPos(xs[i - 1], "x", true)), Math.round(u.valToPos(xs[i], "x", true))]);
      gaps.sort((a, b) => a[0] - b[0]);
      const merged = [];
      for (const g of gaps) {
        const last = merged[merged.length - 1];
        if (last && g[0] <= last[1]) last[1] = Math.max(last[1], g[1]);
        else merged.push(g.slice());
      }
      return merged;
    };
  }
  /**
   * The time axis: the data's extent, or the day around a single time (uPlot stretches one time
   * to 86,400,000 units, 1,000 days of seconds).
   */
  function timeScale(xs) {
    return { time: true, range: (_u, min, max) => (xs.length === 1 ? [xs[0] - 12 * HOUR, xs[0] + 12 * HOUR] : [min, max]) };
  }

  /** "Sample run of 2011-10-08 (15 years old): run npm run nightly -- --profile light for today's forecast." */
  function staleRunNote(model, run) {
    const days = (Date.now() - Date.parse(run)) / 86400000;
    if (!(days > 2)) return null;
    const age = days < 365 ? `${Math.floor(days)} days` : `${Math.floor(days / 365.25)} years`;
    const note = document.createElement("div");
    note.className = "stale-run";
    note.style.color = "#9a6700";
    note.innerHTML = `${/sample/.test(model) ? "Sample run" : "Run"} of ${text(run.slice(0, 10))} (${age} old): run <code>npm run nightly -- --profile light</code> for today's forecast.`;
    return note;
  }

  let meteogram = null;
  async function loadForecast(q) {
    const panel = $("#forecast-panel");
    const meta = panel.querySelector(".meta");
    const box = $("#meteogram");
    panel.dataset.state = "loading";
    meta.textContent = "Loading…";
    const r = await api(`/weather/point/2/json?${q}`);
    if (meteogram) { meteogram.destroy(); meteogram = null; }
    box.innerHTML = "";
    if (r.status !== 200) {
      panel.dataset.state = "error";
      meta.innerHTML = `<span class="error">Forecast unavailable (${text(errorText(r))})</span>`;
      return;
    }
    const xs = [], temp = [], precip = [], wind = [];
    for (const day of r.body.content.weather) {
      for (const [date, slots] of Object.entries(day)) {
        for (const slotByTime of slots) {
          for (const [time, slot] of Object.entries(slotByTime)) {
            // Local date and time of the point, shown as such (the axis uses UTC formatting).
            xs.push(Date.parse(`${date}T${time}:00Z`) / 1000);
            temp.push(value(slot, ["temperature", "surface"]));
            precip.push(value(slot, ["precipitation", "total"]));
            wind.push(value(slot, ["wind", "speed"]));
          }
        }
      }
    }
    const h = (n) => r.headers.get(n) || "?";
    meta.textContent = `${xs.length} ${xs.length === 1 ? "step" : "steps"} · model ${h("X-Forecast-Model")} · run ${h("X-Forecast-Run")} · local times (${h("X-Forecast-Timezone")})`;
    const stale = staleRunNote(h("X-Forecast-Model"), h("X-Forecast-Run"));
    if (stale) meta.appendChild(stale);
    // One step has no line to draw: a filled dot in the series' colour instead.
    const single = (colour) => (xs.length === 1 ? { show: true, size: 10, fill: colour } : {});
    meteogram = new window.uPlot({
      width: Math.max(320, box.clientWidth || 800),
      height: 260,
      tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      scales: { x: timeScale(xs), "°C": {}, mm: { range: (_u, _min, max) => [0, Math.max(1, max)] }, "m/s": { range: (_u, _min, max) => [0, Math.max(5, max)] } },
      series: [
        {},
        // Bars first: the lines and points are drawn over them.
        { label: "Precipitation", scale: "mm", stroke: "#1f6feb", fill: "rgba(31,111,235,.35)", paths: window.uPlot.paths.bars({ size: [0.6, 40] }), value: (_u, v) => (v == null ? "–" : `${v} mm`) },
        { label: "Temperature", scale: "°C", stroke: "#d1242f", width: 2, gaps: lineGaps(xs, false), points: single("#d1242f"), value: (_u, v) => (v == null ? "–" : `${v} °C`) },
        { label: "Wind", scale: "m/s", stroke: "#2da44e", width: 1.5, dash: [6, 4], gaps: lineGaps(xs, false), points: single("#2da44e"), value: (_u, v) => (v == null ? "–" : `${v} m/s`) },
      ],
      axes: [{}, { scale: "°C", label: "°C" }, { scale: "mm", side: 1, label: "mm", grid: { show: false } }, { scale: "m/s", side: 1, label: "m/s", grid: { show: false } }],
    }, [xs, precip, temp, wind], box);
    panel.dataset.state = "ok";
  }
  function value(slot, pathParts) {
    let v = slot;
    for (const p of pathParts) v = v == null ? null : v[p];
    return v && typeof v.value === "number" ? v.value : null;
  }

  // --- search with autocomplete ----------------------------------------------------------------
  const search = $("#search");
  const list = $("#suggestions");
  let items = [];
  let active = -1;
  let timer = 0;
  let seq = 0;
  function closeList() { list.hidden = true; search.setAttribute("aria-expanded", "false"); active = -1; }
  function renderList() {
    list.innerHTML = items.map((p, i) => `<li role="option" data-i="${i}" aria-selected="${i === active}">${text(p.name)} <small>${text(p.address.join(", "))} · ${text(p.type)}</small></li>`).join("");
    list.hidden = items.length === 0;
    search.setAttribute("aria-expanded", String(!list.hidden));
  }
  function choose(i) {
    const p = items[i];
    if (!p) return;
    search.value = p.name;
    closeList();
    selectPoint(p.lat, p.lon, `${p.name}, ${p.address.join(", ")} (${p.id})`);
  }
  search.addEventListener("input", () => {
    clearTimeout(timer);
    const q = search.value.trim();
    if (q.length < 2) { items = []; closeList(); return; }
    timer = setTimeout(async () => {
      const mine = ++seq;
      const r = await api(`/geocode/search/2/json?q=${encodeURIComponent(q)}&limit=8`);
      if (mine !== seq) return; // an older answer arriving late
      if (r.status !== 200) { items = []; list.innerHTML = `<li class="error">${text(errorText(r))}</li>`; list.hidden = false; return; }
      items = r.body.content.points;
      active = -1;
      renderList();
    }, 200);
  });
  search.addEventListener("keydown", (e) => {
    if (list.hidden) return;
    if (e.key === "ArrowDown") { active = Math.min(items.length - 1, active + 1); renderList(); e.preventDefault(); }
    else if (e.key === "ArrowUp") { active = Math.max(0, active - 1); renderList(); e.preventDefault(); }
    else if (e.key === "Enter") { choose(active < 0 ? 0 : active); e.preventDefault(); }
    else if (e.key === "Escape") closeList();
  });
  list.addEventListener("mousedown", (e) => {
    const li = e.target.closest("li[data-i]");
    if (li) { e.preventDefault(); choose(Number(li.dataset.i)); }
  });
  search.addEventListener("blur", () => setTimeout(closeList, 150));

  // --- stations --------------------------------------------------------------------------------
  let stationChart = null;
  $("#station-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const kind = $("#station-kind").value;
    const id = $("#station-id").value.trim();
    const panel = $("#station-panel");
    const meta = panel.querySelector(".meta");
    const box = $("#station-chart");
    if (stationChart) { stationChart.destroy(); stationChart = null; }
    box.innerHTML = "";
    $("#station-latest").textContent = "";
    panel.dataset.state = "loading";
    meta.textContent = "Loading…";
    const r = await api(`/weather/${kind}/2/json?id=${encodeURIComponent(id)}`);
    if (r.status !== 200) { panel.dataset.state = "error"; meta.innerHTML = `<span class="error">${text(errorText(r))}</span>`; return; }
    const c = r.body.content[kind];
    if (!c.history) { panel.dataset.state = "empty"; meta.textContent = c.message || "No observations."; return; }
    const obs = Object.values(c.history).sort((a, b) => a.timestamp - b.timestamp);
    const num = (v) => (typeof v === "number" ? v : null);
    const times = obs.map((o) => o.timestamp);
    const gaps = timeGaps(times).length;
    meta.textContent = `${obs.length} ${obs.length === 1 ? "observation" : "observations"}, ${new Date(obs[0].timestamp * 1000).toISOString().slice(0, 16)} to ${new Date(obs[obs.length - 1].timestamp * 1000).toISOString().slice(0, 16)} UTC${gaps ? ` (${gaps} ${gaps === 1 ? "gap" : "gaps"} without reports)` : ""}`;
    stationChart = new window.uPlot({
      width: Math.max(320, box.clientWidth || 800),
      height: 240,
      tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      scales: { x: timeScale(times), "°C": {}, "%": { range: [0, 100] } },
      series: [
        {},
        { label: "Temperature", scale: "°C", stroke: "#d1242f", width: 2, gaps: lineGaps(times, true) },
        { label: "Cloud cover", scale: "%", stroke: "#8c959f", width: 1, gaps: lineGaps(times, true) },
      ],
      axes: [{}, { scale: "°C", label: "°C" }, { scale: "%", side: 1, label: "%", grid: { show: false } }],
    }, [times, obs.map((o) => num(o.temperature)), obs.map((o) => num(o.cloudCover))], box);
    $("#station-latest").textContent = "latest: " + JSON.stringify(c.latest);
    panel.dataset.state = "ok";
  });

  drawMap().catch((err) => { $("#map-state").textContent = "Map failed: " + err.message; });
})();
