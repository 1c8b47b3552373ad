/**
 * The compatibility endpoints' error bodies: each API's shape (Open-Meteo's {"error","reason"},
 * Photon's {"message"}) around the app's message, except a 401, which names the `apikey` query
 * parameter besides the spec's header, in the same words on both.
 */
import { describe, expect, it } from "vitest";
import { errors } from "../../../server/api/api-error.ts";
import { openMeteoErrorBody } from "../../../server/open-meteo/open-meteo-error.ts";
import { photonErrorBody } from "../../../server/photon/photon-error.ts";

const json = (b: Buffer): Record<string, unknown> => JSON.parse(b.toString("utf8")) as Record<string, unknown>;

describe("compatibility error bodies", () => {
  it("a 401 names the header and the apikey query parameter, the same on both APIs", () => {
    const spec = errors.unauthorized().message;
    const openMeteo = json(openMeteoErrorBody(401, spec));
    const photon = json(photonErrorBody(401, spec));
    expect(Object.keys(openMeteo)).toEqual(["error", "reason"]);
    expect(openMeteo.error).toBe(true);
    expect(Object.keys(photon)).toEqual(["message"]);
    expect(openMeteo.reason).toBe(photon.message);
    expect(photon.message).toMatch(/X-Api-Key header or the apikey query parameter\.$/);
    expect(photon.message).not.toBe(spec);
  });

  it("any other status keeps the app's message", () => {
    const notFound = "No such endpoint: \"/v1/x\".";
    expect(json(openMeteoErrorBody(404, notFound))).toEqual({ error: true, reason: notFound });
    expect(json(photonErrorBody(503, "Not ready: loading."))).toEqual({ message: "Not ready: loading." });
  });
});
