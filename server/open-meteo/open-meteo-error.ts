/**
 * Open-Meteo's error body, `{"error":true,"reason":"..."}` (its docs' weather-forecast-error and
 * geocoding-error examples; Open-Meteo answers them with status 400). Every error the app raises
 * for an Open-Meteo endpoint (400, 401, 404, 503 ...) takes this shape, with our status.
 */
import { ApiError } from "../api/api-error.ts";

export function openMeteoErrorBody(status: number, message: string): Buffer {
  // Open-Meteo's clients may send the key as `apikey`: say so where our message names the header only.
  const reason = status === 401 ? "Missing or invalid API key: send a valid key in the X-Api-Key header or the apikey query parameter." : message;
  return Buffer.from(JSON.stringify({ error: true, reason }), "utf8");
}

/** A 400 with Open-Meteo's wording. */
export function openMeteoError(reason: string): ApiError {
  return new ApiError(400, reason);
}
