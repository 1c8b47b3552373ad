/** JSON Schema of the point object as this service fills it (OpenAPI docs of endpoints 5 and 7). */
export const POINT_SCHEMA: Record<string, unknown> = {
  type: "object",
  required: ["id", "name", "address", "lat", "lon", "type", "ISO2"],
  properties: {
    id: { type: "string", pattern: "^gn:[1-9][0-9]*$", description: "`gn:` + GeoNames id, stable across rebuilds.", examples: ["gn:2950159"] },
    name: { type: "string", description: "GeoNames name of the place." },
    address: { type: "array", items: { type: "string" }, description: "[admin-1 name, country name in English]; unknown parts are left out." },
    lat: { type: "number", description: "Degrees north (WGS84), as GeoNames gives it." },
    lon: { type: "number", description: "Degrees east (WGS84)." },
    type: { type: "string", description: "GeoNames' English description of the feature code, e.g. \"capital of a political entity\"." },
    ISO2: { type: "string", pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2 code of the country." },
  },
};
