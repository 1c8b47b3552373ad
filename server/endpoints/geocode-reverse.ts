import { parseLatitude, parseLongitude } from "../api/params.ts";
import { reverseGeocodeParts } from "../reverse/reverse-geocode.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `The country, admin-1 area and timezone of a latitude/longitude, as the
administrative description.

- **Exact, not nearest-city**: the answer is a point-in-polygon test on the source polygons
  (Natural Earth 10m admin-1 areas; timezone-boundary-builder zones), also next to a border.
  Enclaves finer than Natural Earth (Baarle-Hertog, the Vennbahn, Campione...) come from the
  timezone polygons, which follow OpenStreetMap borders.
  An H3 resolution-5 table answers most points directly; cells crossed by a border test the
  point against the edges inside the cell only.
- **country** is the country of the admin-1 area containing the point (countries are the union
  of their admin-1 areas, so the two always agree), with the code GeoNames gives the places
  inside that area (French Guiana is GF). **administrative1** is the GeoNames admin-1 area (code
  and id) that the GeoNames places inside the Natural Earth area belong to; where Natural Earth's
  area is coarser than GeoNames' (no code has 80 % of the places), the one of the nearest GeoNames
  place inside the area.
  **continent** is the GeoNames continent of the country.
- **Coasts**: a point in no admin-1 area but within the territorial sea of one (12 nautical
  miles, 22.224 km) takes the country and admin-1 of the nearest area; farther out, a point inside
  a country's timezone polygon (territorial waters around islands Natural Earth leaves out, lakes)
  takes that zone's country and its nearest area.
- **At sea** (none of the above: open sea, lakes outside the zone polygons): only **timezone** is
  present: the nautical zone Etc/GMT±N of the 15° longitude band (Etc/GMT-12 is UTC+12; on a
  band edge the eastern band; at ±180° Etc/GMT+12), or the zone of a polygon covering the point.
- A member whose facts are unknown (an area Natural Earth maps but GeoNames has no admin-1 code
  for, e.g. some small islands; disputed areas without a country) is left out.
- **Disputed and overlapping areas**: the country follows GeoNames (the places inside the
  area); where timezone polygons overlap (Xinjiang: Asia/Shanghai and Asia/Urumqi; Abkhazia and
  South Ossetia: Asia/Tbilisi and Europe/Moscow) the alphabetically first zone answers.
- **A point exactly on a border** (measure zero) belongs to one of the two areas; which one is
  not specified.
- **timezone** is computed at the request's instant (GMT = offset in minutes, isDST, local time,
  sunrise and sunset of the local day; see the administrative description).`;

export const geocodeReverseEndpoint = defineEndpoint({
  path: "/geocode/reverse/2/json",
  summary: "Administrative and timezone description of a latitude/longitude.",
  params: ["lat", "lon"],
  datasets: ["admin", "places"],
  cache: "instant",
  docs: {
    description: DESCRIPTION,
    content: {
      type: "object",
      required: ["administrative"],
      properties: { administrative: { $ref: "#/components/schemas/Administrative" } },
    },
  },
  parse: (query) => ({ lat: parseLatitude(query), lon: parseLongitude(query) }),
  handle: ({ lat, lon }, data) => ({ contentParts: ['{"administrative":', ...reverseGeocodeParts(lat, lon, data.admin, data.places), "}"] }),
});
