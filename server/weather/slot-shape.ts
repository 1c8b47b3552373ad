/**
 * The weather time slot, described once (answer-shape.ts): every member in the spec's order, with
 * its unit, the column of the slot table it reads, and what the docs table says of it (unit,
 * source variables, the window it covers, the formula). The JSON Schema (slot-schema.ts), the
 * docs table (members.ts, `npm run docs`) and the writer (slot-writer.ts) are made from it.
 */
import { colorJson } from "./slot-colors.ts";
import { PROBABILITY_THRESHOLD_MM } from "./point-series.ts";
import { LAPSE_RATE_K_PER_M } from "./slot-physics.ts";
import type { Member, MemberDoc, Node, Schema } from "./answer-shape.ts";
import type { NumericMember, SlotTable } from "./slot-table.ts";

/** The string naming the isotherm whose height `isotherm` gives. */
export const ISOTHERM_NAME = "0 °C";

type SlotNode = Node<SlotTable>;
type SlotMember = Member<SlotTable>;

const INSTANT = "instant: the step's valid time";
const WINDOW = "the window ending at the slot: (previous step, this step]";
const lapse = `${LAPSE_RATE_K_PER_M * 1000} K/km`;

const member = (key: string, node: SlotNode): SlotMember => ({ key, node });
const object = (...members: SlotMember[]): SlotNode => ({ kind: "object", members });
/** A measure reading column `column` of the slot table (rounded already; NaN is null). */
const measure = (column: NumericMember, unit: string, doc?: MemberDoc, ...extras: SlotMember[]): SlotNode => ({
  kind: "measure",
  unit,
  value: (t, i) => t.columns[column][i]!,
  extras,
  ...(doc ? { doc } : {}),
});

export const COLOR_SCHEMA: Schema = {
  type: ["object", "null"],
  required: ["background", "text"],
  properties: { background: { type: "string", pattern: "^#[0-9a-f]{6}$" }, text: { enum: ["#000000", "#ffffff"] } },
};
/** The `color` of a temperature: its colour pair, null when the value is null. */
const color = (column: NumericMember, doc?: MemberDoc): SlotMember =>
  member("color", { kind: "value", schema: COLOR_SCHEMA, write: (w, t, i) => void w.text(colorJson(t.columns[column][i]!)), ...(doc ? { doc } : {}) });
const colored = (column: NumericMember, doc: MemberDoc | undefined, ...extras: SlotMember[]): SlotNode => measure(column, "°C", doc, color(column), ...extras);

const localData: SlotMember = {
  key: "localData",
  node: { kind: "value", schema: { type: "integer" }, write: (w, t, i) => void w.num(t.localCloud[i]!) },
  present: (t, i) => t.localCloud[i] === t.localCloud[i],
  description: "Observed cover of a nearby station (percent); present only when one reported.",
};
const localStation: SlotMember = {
  key: "localStation",
  node: { kind: "value", schema: { type: "string" }, write: (w, t, i) => void w.text(JSON.stringify(t.localStation[i]!)) },
  present: (t, i) => t.localStation[i] !== undefined,
  description: "Station id of the local observation; present only when one is near.",
};

const cloud = (column: NumericMember, doc?: MemberDoc): SlotNode => measure(column, "%", doc);

export const SLOT_SHAPE: SlotNode = object(
  member(
    "clouds",
    object(
      member("total", measure("cloudTotal", "%", { source: "cloud_cover (GFS TCDC entire atmosphere)", window: "instant, or the window's mean where the model gives only averages", formula: "bilinear, whole percent; `localData`: observed cover (METAR/SYNOP, octas x 12.5) of a station within 25 km and 300 m of height reporting within 30 min of the slot" }, localData)),
      member("high", cloud("cloudHigh", { label: "clouds.high / middle / low", source: "cloud_cover_high / _mid / _low (HCDC/MCDC/LCDC, else TCDC on the layer)", window: "instant, or the window's mean", formula: "bilinear, whole percent" })),
      member("middle", cloud("cloudMiddle")),
      member("low", cloud("cloudLow")),
      member("convective", cloud("cloudConvective", { source: "cloud_cover_convective (TCDC convective cloud layer)", window: INSTANT, formula: "bilinear, whole percent" })),
      member("boundary", cloud("cloudBoundary", { source: "cloud_cover_boundary_layer (TCDC boundary layer cloud layer)", window: "instant, or the window's mean", formula: "bilinear, whole percent" })),
    ),
  ),
  member("reltiveHumidity", measure("humidity", "%", { source: "relative_humidity_2m (RH 2 m)", window: INSTANT, formula: "bilinear, whole percent" })),
  member("liftedIndex", measure("liftedIndex", "K", { source: "lifted_index (LFTX surface)", window: INSTANT, formula: "bilinear, one decimal" })),
  member(
    "isotherm",
    measure("isotherm", "m", { source: "freezing_level_height (HGT 0C isotherm, gpm taken as m)", window: INSTANT, formula: `bilinear, whole metres above mean sea level; \`temperature\` is ${JSON.stringify(ISOTHERM_NAME)}, the isotherm it gives` }, member("temperature", { kind: "const", text: ISOTHERM_NAME })),
  ),
  member("HPBL", measure("hpbl", "m", { source: "boundary_layer_height (HPBL surface)", window: INSTANT, formula: "bilinear, whole metres above ground" })),
  member(
    "precipitation",
    object(
      member("total", measure("precipitation", "mm", { source: "precipitation (APCP; buckets and running totals turned into per-step amounts at ingest)", window: WINDOW, formula: "bilinear amount over the window, two decimals; null at a run's first step (empty window)" })),
      member("convective", measure("precipitationConvective", "mm", { source: "precipitation_convective (ACPCP)", window: WINDOW, formula: "as total" })),
      member("probability", measure("probability", "%", { source: "precipitation at the 3x3 grid nodes around the nearest node", window: WINDOW, formula: `deterministic models: share of those nodes (inside the grid) whose window amount is >= ${PROBABILITY_THRESHOLD_MM} mm, whole percent (neighbourhood probability); header X-Forecast-Probability says so` })),
    ),
  ),
  member(
    "temperature",
    object(
      member("isInversion", {
        kind: "value",
        schema: { enum: [0, 1] },
        write: (w, t, i) => void w.num(t.inversion[i]!),
        doc: { unit: "0/1", source: "temperature_2m, temperature_925hPa, temperature_850hPa, pressure_msl, surface_height", window: INSTANT, formula: "1 when the lowest stored pressure level above the model surface (925 hPa, else 850 hPa; surface pressure from MSL pressure and model height by the standard atmosphere) is warmer than the model's 2 m air" },
      }),
      member(
        "surface",
        measure(
          "surface",
          "°C",
          { source: "temperature_2m (TMP 2 m), surface_height (HGT surface)", window: INSTANT, formula: `bilinear T - 273.15, plus the lapse-rate correction -${lapse} x (point height from our DEM - model surface height); one decimal; \`localStation\`: the station of clouds.total.localData` },
          color("surface", { label: "temperature.*.color", unit: "#rrggbb", source: "the member's value", window: "as the member", formula: "background from the published scale (-40 °C to +50 °C, clamped); text #000000 or #ffffff, whichever has the higher WCAG 2.1 contrast (always >= 4.5); null when the value is null" }),
          localStation,
        ),
      ),
      member("min", colored("min", { label: "temperature.min / max", source: "temperature_2m_min / _max (TMIN/TMAX 2 m)", window: WINDOW, formula: "bilinear extreme over the window with the same height correction; a model without TMIN/TMAX: the smaller / larger 2 m temperature at the window's two ends (previous step, this step)" })),
      member("max", colored("max", undefined)),
      member("felt", colored("felt", { source: "surface temperature, wind speed, relative humidity", window: INSTANT, formula: "NWS wind chill when T <= 10 °C and wind > 4.8 km/h; NWS heat index (Rothfusz with the NWS adjustments, the simple formula below 80 °F) when T >= 26.7 °C; else T" })),
    ),
  ),
  member(
    "wind",
    object(
      member("speed", measure("speed", "m/s", { source: "wind_u_10m, wind_v_10m (UGRD/VGRD 10 m)", window: INSTANT, formula: "u and v interpolated bilinearly, then sqrt(u² + v²); one decimal" })),
      member("gust", measure("gust", "m/s", { source: "wind_gust (GUST surface)", window: INSTANT, formula: "bilinear, one decimal" })),
      member(
        "direction",
        measure(
          "direction",
          "°",
          { source: "wind_u_10m, wind_v_10m", window: INSTANT, formula: "meteorological (where the wind blows from, 0 = north, clockwise), from the interpolated u and v; whole degrees, 0-359; calm is 0; `icon` the nearest multiple of 45, 360 written 0" },
          member("icon", { kind: "value", schema: { enum: [0, 45, 90, 135, 180, 225, 270, 315, null] }, write: (w, t, i) => void (t.icon[i]! < 0 ? w.text("null") : w.num(t.icon[i]!)) }),
        ),
      ),
    ),
  ),
  member("pressure", measure("pressure", "hPa", { source: "pressure_msl (PRMSL)", window: INSTANT, formula: 'bilinear, one decimal; `level` is "MSL"' }, member("level", { kind: "const", text: "MSL" }))),
  member("heatIndex", {
    kind: "value",
    schema: { enum: ["", "1/4", "2/4", "3/4", "4/4"] },
    // The categories need no escaping.
    write: (w, t, i) => void w.text(`"${t.heatIndex[i]!}"`),
    doc: { unit: "-", source: "NWS heat index of the slot", window: INSTANT, formula: 'when T >= 26.7 °C: 27-32 °C "1/4", 32-41 "2/4", 41-54 "3/4", >= 54 "4/4" (lower bounds inclusive); else ""' },
  }),
);
