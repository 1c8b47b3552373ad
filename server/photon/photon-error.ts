/**
 * Photon's error body, `{"message": "..."}` (komoot/photon: GeoJsonFormatter.formatError), for
 * every error the app raises on a Photon endpoint, with our status.
 */
import { ApiError } from "../api/api-error.ts";
import { compatErrorMessage } from "../compat/error-message.ts";

export function photonErrorBody(status: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ message: compatErrorMessage(status, message) }), "utf8");
}

/** A 400 with Photon's wording. */
export function photonError(message: string): ApiError {
  return new ApiError(400, message);
}

/** JSON Schema of the error body, for the OpenAPI document. */
export const PHOTON_ERROR_SCHEMA: Record<string, unknown> = { type: "object", required: ["message"], properties: { message: { type: "string" } } };
