/**
 * The slot's one description (server/weather/slot-shape.ts) and what is made from it: the writer's
 * bytes are those of JSON.stringify of the slot built by hand as the spec gives it, the schema
 * names exactly the members written, and the docs table has a row for every member group.
 */
import { describe, expect, it } from "vitest";
import { temperatureColor } from "../../../server/weather/derived/temperature-colors.ts";
import { JsonText } from "../../../server/weather/json-text.ts";
import { SLOT_MEMBERS } from "../../../server/weather/members.ts";
import { WEATHER_SLOT_SCHEMA } from "../../../server/weather/slot-schema.ts";
import { NUMERIC_MEMBERS, type NumericMember, type SlotTable } from "../../../server/weather/slot-table.ts";
import { writeWeatherDays } from "../../../server/weather/slot-writer.ts";

/** Two slots of one day: one with every value and a nearby station, one with every value missing. */
function table(): SlotTable {
  const columns = {} as Record<NumericMember, number[]>;
  NUMERIC_MEMBERS.forEach((m, k) => (columns[m] = [k % 2 === 0 ? k + 0.25 : -k - 0.5, NaN]));
  columns.surface[0] = 31.4;
  return {
    slots: [
      { step: 3, validMs: 0, date: "2026-11-23", time: "21:00" },
      { step: 4, validMs: 0, date: "2026-11-23", time: "22:00" },
    ],
    columns,
    icon: [315, -1],
    inversion: [1, 0],
    heatIndex: ["2/4", ""],
    localCloud: [88, NaN],
    localStation: ["EDDB", undefined],
  };
}

/** The spec's slot, built as an object from the table. */
function expected(t: SlotTable, i: number): unknown {
  const v = (m: NumericMember): number | null => (Number.isNaN(t.columns[m][i]!) ? null : t.columns[m][i]!);
  const m = (member: NumericMember, unit: string) => ({ value: v(member), unit });
  const colored = (member: NumericMember) => ({ ...m(member, "°C"), color: v(member) === null ? null : temperatureColor(v(member)!) });
  const local = Number.isNaN(t.localCloud[i]!) ? {} : { localData: t.localCloud[i] };
  const station = t.localStation[i] === undefined ? {} : { localStation: t.localStation[i] };
  return {
    clouds: { total: { ...m("cloudTotal", "%"), ...local }, high: m("cloudHigh", "%"), middle: m("cloudMiddle", "%"), low: m("cloudLow", "%"), convective: m("cloudConvective", "%"), boundary: m("cloudBoundary", "%") },
    reltiveHumidity: m("humidity", "%"),
    liftedIndex: m("liftedIndex", "K"),
    isotherm: { ...m("isotherm", "m"), temperature: "0 °C" },
    HPBL: m("hpbl", "m"),
    precipitation: { total: m("precipitation", "mm"), convective: m("precipitationConvective", "mm"), probability: m("probability", "%") },
    temperature: { isInversion: t.inversion[i], surface: { ...colored("surface"), ...station }, min: colored("min"), max: colored("max"), felt: colored("felt") },
    wind: { speed: m("speed", "m/s"), gust: m("gust", "m/s"), direction: { ...m("direction", "°"), icon: t.icon[i]! < 0 ? null : t.icon[i] } },
    pressure: { ...m("pressure", "hPa"), level: "MSL" },
    heatIndex: t.heatIndex[i],
  };
}

/** The member names a schema allows and requires must be those of the value (recursively). */
function checkAgainst(schema: Record<string, unknown>, value: unknown, where: string): void {
  if (schema.type !== "object" || typeof value !== "object" || value === null) return;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const keys = Object.keys(value);
  for (const k of schema.required as string[]) expect(keys, `${where} requires ${k}`).toContain(k);
  for (const k of keys) {
    expect(Object.keys(properties), `${where} allows ${k}`).toContain(k);
    checkAgainst(properties[k]!, (value as Record<string, unknown>)[k], `${where}.${k}`);
  }
}

describe("the slot writer", () => {
  it("writes the text of JSON.stringify of the spec's slots, optional members only when present", () => {
    const t = table();
    const w = new JsonText();
    writeWeatherDays(w, t);
    const want = JSON.stringify([{ "2026-11-23": [{ "21:00": expected(t, 0) }, { "22:00": expected(t, 1) }] }]);
    expect(w.json()).toBe(want);
  });
});

describe("the slot schema", () => {
  it("requires and allows exactly the members written, the optional ones included", () => {
    const t = table();
    for (const i of [0, 1]) checkAgainst(WEATHER_SLOT_SCHEMA, expected(t, i), "slot");
    const clouds = (WEATHER_SLOT_SCHEMA.properties as Record<string, { properties: Record<string, { required: string[]; properties: Record<string, unknown> }> }>).clouds!.properties;
    expect(clouds.total!.required).toEqual(["value", "unit"]);
    expect(Object.keys(clouds.total!.properties)).toEqual(["value", "unit", "localData"]);
  });
});

describe("the docs table", () => {
  it("has one row per documented member group, in the answer's order", () => {
    expect(SLOT_MEMBERS.map((m) => m.member)).toEqual([
      "clouds.total", "clouds.high / middle / low", "clouds.convective", "clouds.boundary", "reltiveHumidity", "liftedIndex", "isotherm", "HPBL",
      "precipitation.total", "precipitation.convective", "precipitation.probability",
      "temperature.isInversion", "temperature.surface", "temperature.*.color", "temperature.min / max", "temperature.felt",
      "wind.speed", "wind.gust", "wind.direction", "pressure", "heatIndex",
    ]);
    expect(SLOT_MEMBERS.find((m) => m.member === "temperature.*.color")?.unit).toBe("#rrggbb");
    expect(SLOT_MEMBERS.find((m) => m.member === "pressure")?.unit).toBe("hPa");
  });
});
