/**
 * Open-Meteo's error body, `{"error":true,"reason":"..."}` (its docs' weather-forecast-error and
 * geocoding-error examples; Open-Meteo answers them with status 400). Every error the app raises
 * for an Open-Meteo endpoint (400, 401, 404, 503 ...) takes this shape, with our status.
 */
import { ApiError } from "../api/api-error.ts";
import { compatErrorMessage } from "../compat/error-message.ts";

export function openMeteoErrorBody(status: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ error: true, reason: compatErrorMessage(status, message) }), "utf8");
}

/** A 400 with Open-Meteo's wording. */
export function openMeteoError(reason: string): ApiError {
  return new ApiError(400, reason);
}
