import { COUNTRY_TAGS, STATE_TAGS } from "../photon/feature-tags.ts";
import { featureCollectionJson, type PhotonFeature } from "../photon/geojson.ts";
import { photonError, photonErrorBody } from "../photon/photon-error.ts";
import { PHOTON_MAX_RESULTS, photonLanguage, photonLimit, photonPoint } from "../photon/photon-params.ts";
import { reverseFacts } from "../reverse/reverse-geocode.ts";
import { defineEndpoint } from "./endpoint.ts";
import { PHOTON_BODIES } from "./photon-search.ts";

const DESCRIPTION = `Photon's reverse geocoding (\`/reverse\`, also \`/reverse/\`), answered from our reverse geocoding
(the point-in-polygon test of /geocode/reverse): one feature, the admin-1 area containing the point
(type state, osm_key boundary, osm_value administrative; name, country, countrycode, and extent,
the box of the area's Natural Earth polygon as [west, north, east, south]), or the country when its
admin-1 area is unknown (type country). Its geometry is the point asked about. At sea, or where no
area is known, no feature. Photon answers the nearest OSM object (a house, a street); we have
areas only.
- **lat, lon**: required. **limit**: accepted (1..${PHOTON_MAX_RESULTS}); there is at most one feature.
  **radius**: checked (0 to 5000 km) and without effect: the area contains the point or not.
- **lang**: the language of the country name (CLDR); default English.`;

export const photonReverseEndpoint = defineEndpoint({
  path: "/reverse",
  summary: "Photon compatible reverse geocoding (GeoJSON).",
  params: ["lat", "lon", "limit", "lang", "radius"],
  datasets: ["admin", "places"],
  foreign: { errorBody: photonErrorBody },
  docs: {
    description: DESCRIPTION,
    ...PHOTON_BODIES,
    params: {
      lat: "Latitude, -90 to 90.",
      lon: "Longitude, -180 to 180.",
      limit: `1..${PHOTON_MAX_RESULTS} (clamped); at most one feature is answered.`,
      lang: "ISO 639-1 code of the country name, or default.",
      radius: "Kilometres, 0 to 5000 (checked, no effect).",
    },
  },
  parse: (query) => {
    const point = photonPoint(query, true)!;
    const radius = query.get("radius");
    if (radius !== undefined && !(/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(radius) && Number(radius) >= 0 && Number(radius) <= 5000)) throw photonError("Invalid value for 'radius' parameter.");
    photonLimit(query, 1);
    return { ...point, language: photonLanguage(query) };
  },
  handle: ({ lat, lon, language }, data) => {
    const { input, adminFeature } = reverseFacts(lat, lon, data.admin, data.places);
    const features: PhotonFeature[] = [];
    const { country, admin1 } = input;
    if (country) {
      const feature: PhotonFeature = admin1
        ? { tags: STATE_TAGS, name: admin1.name, country: country.names[language], countrycode: country.iso2, lat, lon }
        : { tags: COUNTRY_TAGS, name: country.names[language], countrycode: country.iso2, lat, lon };
      if (admin1 && adminFeature !== undefined) {
        const [minLon, minLat, maxLon, maxLat] = data.admin.adminFeatureBox(adminFeature);
        feature.extent = [minLon, maxLat, maxLon, minLat];
      }
      features.push(feature);
    }
    return { body: featureCollectionJson(features), contentType: "application/json; charset=utf-8" };
  },
});
