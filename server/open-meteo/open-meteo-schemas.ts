/** JSON Schema of Open-Meteo's error body (its published OpenAPI files' 400 response). */
export const OPEN_METEO_ERROR_SCHEMA: Record<string, unknown> = {
  type: "object",
  required: ["error", "reason"],
  properties: { error: { const: true }, reason: { type: "string" } },
};
