import { describe, expect, it } from "vitest";
import { TimezoneOfPoint } from "../../../server/admin-description/describe-timezone.ts";
import { currentAt } from "../../../server/weather/id-answer.ts";

describe("weather.current of /weather/id", () => {
  it("is the place's local date and minute at each instant, in order or not", () => {
    // Kolkata is UTC+05:30 all year (no DST since 1945).
    const current = currentAt(new TimezoneOfPoint("Asia/Kolkata", 22.57, 88.36));
    const cases: [string, string][] = [
      ["2011-10-11T00:00:59.000Z", '{"date":"2011-10-11","hour":"05:30"}'],
      ["2011-10-11T00:00:59.999Z", '{"date":"2011-10-11","hour":"05:30"}'],
      ["2011-10-11T00:01:00.000Z", '{"date":"2011-10-11","hour":"05:31"}'],
      ["2011-10-10T18:29:59.000Z", '{"date":"2011-10-10","hour":"23:59"}'],
      ["2011-10-10T18:30:00.000Z", '{"date":"2011-10-11","hour":"00:00"}'],
      ["2011-10-11T00:00:59.500Z", '{"date":"2011-10-11","hour":"05:30"}'],
    ];
    for (const [iso, json] of cases) {
      const piece = current.write(new Date(iso));
      expect(typeof piece === "string" ? piece : Buffer.from(piece).toString("utf8"), iso).toBe(json);
    }
  });
});
