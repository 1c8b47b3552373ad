/**
 * What an error on a compatibility endpoint (Open-Meteo's, Photon's) says: the app's message,
 * except for a 401. Those APIs' clients may send the key as the `apikey` query parameter, so their
 * 401 names both ways where the spec's names the header only. Each API wraps it in its own body
 * (open-meteo/open-meteo-error.ts, photon/photon-error.ts).
 */

export const COMPAT_UNAUTHORIZED_MESSAGE = "Missing or invalid API key: send a valid key in the X-Api-Key header or the apikey query parameter.";

/** The message to send for an error of `status` whose app message is `message`. */
export function compatErrorMessage(status: number, message: string): string {
  return status === 401 ? COMPAT_UNAUTHORIZED_MESSAGE : message;
}
