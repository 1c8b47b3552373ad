/** Checks the full shape of a weather time slot as the spec defines it (members, types, units). */
import { expect } from "vitest";

type Obj = Record<string, unknown>;

function expectMeasure(m: unknown, unit: string, where: string, extra: string[] = []): void {
  expect(m, where).toBeTypeOf("object");
  const o = m as Obj;
  expect(o.unit, `${where}.unit`).toBe(unit);
  expect(o.value === null || typeof o.value === "number", `${where}.value is a number or null`).toBe(true);
  if (typeof o.value === "number") expect(Number.isFinite(o.value), `${where}.value finite`).toBe(true);
  for (const key of Object.keys(o)) expect(["value", "unit", ...extra], `${where} has no member ${key}`).toContain(key);
}

function expectColored(m: unknown, where: string, extra: string[] = []): void {
  expectMeasure(m, "°C", where, ["color", ...extra]);
  const o = m as Obj;
  if (o.value === null) expect(o.color, `${where}.color`).toBeNull();
  else {
    const c = o.color as Obj;
    expect(c.background, `${where}.color.background`).toMatch(/^#[0-9a-f]{6}$/);
    expect(["#000000", "#ffffff"], `${where}.color.text`).toContain(c.text);
  }
}

export function expectSlotShape(slot: unknown, where = "slot"): void {
  const s = slot as Obj;
  expect(Object.keys(s).sort()).toEqual(["HPBL", "clouds", "heatIndex", "isotherm", "liftedIndex", "precipitation", "pressure", "reltiveHumidity", "temperature", "wind"].sort());
  const clouds = s.clouds as Obj;
  expect(Object.keys(clouds).sort()).toEqual(["boundary", "convective", "high", "low", "middle", "total"]);
  for (const [k, m] of Object.entries(clouds)) {
    expectMeasure(m, "%", `${where}.clouds.${k}`, ["localData"]);
    const v = (m as Obj).value;
    if (typeof v === "number") expect(v >= 0 && v <= 100, `${where}.clouds.${k} in 0..100`).toBe(true);
  }
  expectMeasure(s.reltiveHumidity, "%", `${where}.reltiveHumidity`);
  expectMeasure(s.liftedIndex, "K", `${where}.liftedIndex`);
  expectMeasure(s.isotherm, "m", `${where}.isotherm`, ["temperature"]);
  expect((s.isotherm as Obj).temperature).toBe("0 °C");
  expectMeasure(s.HPBL, "m", `${where}.HPBL`);
  const p = s.precipitation as Obj;
  expect(Object.keys(p).sort()).toEqual(["convective", "probability", "total"]);
  expectMeasure(p.total, "mm", `${where}.precipitation.total`);
  expectMeasure(p.convective, "mm", `${where}.precipitation.convective`);
  expectMeasure(p.probability, "%", `${where}.precipitation.probability`);
  const t = s.temperature as Obj;
  expect(Object.keys(t).sort()).toEqual(["felt", "isInversion", "max", "min", "surface"]);
  expect([0, 1]).toContain(t.isInversion);
  expectColored(t.surface, `${where}.temperature.surface`, ["localStation"]);
  expectColored(t.min, `${where}.temperature.min`);
  expectColored(t.max, `${where}.temperature.max`);
  expectColored(t.felt, `${where}.temperature.felt`);
  const w = s.wind as Obj;
  expect(Object.keys(w).sort()).toEqual(["direction", "gust", "speed"]);
  expectMeasure(w.speed, "m/s", `${where}.wind.speed`);
  expectMeasure(w.gust, "m/s", `${where}.wind.gust`);
  expectMeasure(w.direction, "°", `${where}.wind.direction`, ["icon"]);
  const d = w.direction as Obj;
  if (d.value === null) expect(d.icon).toBeNull();
  else {
    expect(d.value as number).toBeGreaterThanOrEqual(0);
    expect(d.value as number).toBeLessThan(360);
    expect([0, 45, 90, 135, 180, 225, 270, 315]).toContain(d.icon);
  }
  expectMeasure(s.pressure, "hPa", `${where}.pressure`, ["level"]);
  expect((s.pressure as Obj).level).toBe("MSL");
  expect(["", "1/4", "2/4", "3/4", "4/4"]).toContain(s.heatIndex);
}

/** The slots of a `[{date: [{time: slot}]}]` section, with their date and time, checking the grouping. */
// JSON read back from the server: callers reach members by the spec's names.
type JsonSlot = Record<string, any>;

export function slotsOf(days: unknown): { date: string; time: string; slot: JsonSlot }[] {
  expect(Array.isArray(days)).toBe(true);
  const out: { date: string; time: string; slot: JsonSlot }[] = [];
  for (const day of days as Obj[]) {
    const keys = Object.keys(day);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const entry of day[keys[0]!] as Obj[]) {
      const times = Object.keys(entry);
      expect(times).toHaveLength(1);
      expect(times[0]).toMatch(/^\d{2}:\d{2}$/);
      out.push({ date: keys[0]!, time: times[0]!, slot: entry[times[0]!] as JsonSlot });
    }
  }
  return out;
}
