/**
 * Reverse geocoding at fixed instants (the HTTP tests cannot choose the request's instant):
 * offsets from the IANA rules of the zones, and the polar night of Svalbard.
 */
import { atInstant } from "../../../server/api/instant-part.ts";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminIndex } from "../../../datasets/admin/admin-index.ts";
import { DATASETS } from "../../../datasets/catalog.ts";
import { readConfig } from "../../../datasets/common/config.ts";
import { createLogger } from "../../../datasets/common/log.ts";
import { POLAR_NIGHT } from "../../../server/admin-description/describe-timezone.ts";
import { loadPlaces } from "../../../server/places/load-places.ts";
import type { PlacesData } from "../../../server/places/places-data.ts";
import { loadAdmin } from "../../../server/reverse/load-admin.ts";
import { joinParts } from "../../../server/api/body-parts.ts";
import { reverseGeocode, reverseGeocodeParts } from "../../../server/reverse/reverse-geocode.ts";
import { defaultDatasetDir } from "../../helpers/default-data.ts";

let index: AdminIndex;
let places: PlacesData;

beforeAll(async () => {
  const dirs = { places: await defaultDatasetDir("places"), admin: await defaultDatasetDir("admin") };
  const config = readConfig({ GEODATA_DATA_DIR: dirs.admin });
  const logger = createLogger({ minLevel: "error" });
  const ctx = (name: "admin" | "places") => ({ file: path.join(dirs[name], DATASETS[name].file), dataDir: dirs[name], spec: DATASETS[name], config, logger });
  index = (await loadAdmin(ctx("admin"))).value;
  places = (await loadPlaces(ctx("places"))).value;
}, 900_000);

describe("reverseGeocode at a fixed instant", () => {
  it("gives the Chatham Islands +12:45 in the southern winter and +13:45 in summer", () => {
    const winter = reverseGeocode(-43.95353, -176.55973, index, places, new Date("2025-07-01T00:00:00Z"));
    expect(winter.timezone).toMatchObject({ timezone: "Pacific/Chatham", GMT: 765, isDST: 0 });
    const summer = reverseGeocode(-43.95353, -176.55973, index, places, new Date("2025-01-15T00:00:00Z"));
    expect(summer.timezone).toMatchObject({ GMT: 825, isDST: 1 });
  });

  it("gives Lord Howe Island a half-hour DST: +10:30 in July, +11:00 in January", () => {
    expect(reverseGeocode(-31.5553, 159.0821, index, places, new Date("2025-07-01T00:00:00Z")).timezone).toMatchObject({ timezone: "Australia/Lord_Howe", GMT: 630, isDST: 0 });
    expect(reverseGeocode(-31.5553, 159.0821, index, places, new Date("2025-01-15T00:00:00Z")).timezone).toMatchObject({ GMT: 660, isDST: 1 });
  });

  it("gives Longyearbyen polar night at the winter solstice, UTC+1", () => {
    const a = reverseGeocode(78.22334, 15.64689, index, places, new Date("2025-12-21T12:00:00Z"));
    expect(a.timezone).toMatchObject({ timezone: "Arctic/Longyearbyen", GMT: 60, isDST: 0, sunrise: POLAR_NIGHT, sunset: POLAR_NIGHT });
  });

  it("fills every member on land: Paris is Europe, France (count of places), Île-de-France (GeoNames 3012874)", () => {
    const a = reverseGeocode(48.85341, 2.3488, index, places, new Date("2025-07-01T12:00:00Z"));
    expect(a.continent?.code).toBe("EU");
    expect(a.country).toMatchObject({ ISO2: "FR", ISO3: "FRA", capital: "Paris" });
    expect(a.country!.name.EN).toBe("France");
    expect(a.administrative1).toMatchObject({ code: "FR.11", id_admin: 3012874 });
    expect(a.timezone).toMatchObject({ timezone: "Europe/Paris", GMT: 120, isDST: 1 });
  });

  it("gives a point 15 km off Cabo da Roca Portugal (territorial sea, 12 nautical miles), one 35 km off only the nautical timezone", () => {
    // Cabo da Roca, the westernmost point of mainland Europe: 38°46′51″N 9°30′03″W; due west along
    // the parallel, 1° of longitude is 111.32 km · cos(latitude).
    const lat = 38.78083;
    const lon = -9.50083;
    const kmPerDegree = 111.32 * Math.cos((lat * Math.PI) / 180);
    const near = reverseGeocode(lat, lon - 15 / kmPerDegree, index, places, new Date("2025-07-01T12:00:00Z"));
    expect(near.country?.ISO2).toBe("PT");
    expect(near.timezone.timezone).toBe("Europe/Lisbon");
    const far = reverseGeocode(lat, lon - 35 / kmPerDegree, index, places, new Date("2025-07-01T12:00:00Z"));
    expect(far.country).toBeUndefined();
    expect(far.administrative1).toBeUndefined();
    // Nautical zone of the band 7.5°W-22.5°W: UTC-1, POSIX-signed Etc/GMT+1.
    expect(far.timezone.timezone).toBe("Etc/GMT+1");
  });
});

describe("reverseGeocodeParts", () => {
  it("joined, is the JSON of reverseGeocode, byte for byte, on land, at sea and twice for the same area", () => {
    const instant = new Date("2025-07-01T12:00:00Z");
    // Paris, Svalbard, Chatham Islands, Lord Howe, the open Pacific, and Paris again (areas reused).
    for (const [lat, lon] of [[48.85341, 2.3488], [78.22334, 15.64689], [-43.95353, -176.55973], [-31.5553, 159.0821], [0, -140], [48.86, 2.35]] as const) {
      expect(joinParts(atInstant(reverseGeocodeParts(lat, lon, index, places), instant)).toString("utf8")).toBe(JSON.stringify(reverseGeocode(lat, lon, index, places, instant)));
    }
  });
});
