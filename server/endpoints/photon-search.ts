import { placeFacts } from "../compat/place-facts.ts";
import { placeTags } from "../photon/feature-tags.ts";
import { featureCollectionJson, type PhotonFeature } from "../photon/geojson.ts";
import { PHOTON_ERROR_SCHEMA, photonError, photonErrorBody } from "../photon/photon-error.ts";
import { checkBiasParameters, PHOTON_MAX_RESULTS, photonLanguage, photonLimit, photonPoint } from "../photon/photon-params.ts";
import { defineEndpoint } from "./endpoint.ts";

const Q_MAX = 200;
const DEFAULT_LIMIT = 15;

const DESCRIPTION = `Photon's forward search (\`/api\`, also \`/api/\`), for its clients (leaflet-control-geocoder's
Photon geocoder), answered from our places index with the ranking of /geocode/search (the same
places in the same order) as a GeoJSON FeatureCollection.
- **q**: required, at most ${Q_MAX} characters. **limit**: default ${DEFAULT_LIMIT}, clamped to 1..${PHOTON_MAX_RESULTS} as Photon does.
- **lat, lon, zoom, location_bias_scale**: Photon's location bias; checked as Photon checks them and
  without effect: our ranking has no location bias.
- **lang**: the language of country names (CLDR); default English.
- **Properties**: osm_key, osm_value and type from the GeoNames feature code and population (we have
  no OSM objects, so no osm_type or osm_id), name, state (admin-1), country, countrycode; no extent
  for places, which are points.
- **Errors**: Photon's body \`{"message": "..."}\`, with our status.`;

export const PHOTON_FEATURE_COLLECTION_SCHEMA: Record<string, unknown> = {
  type: "object",
  required: ["type", "features"],
  properties: {
    type: { const: "FeatureCollection" },
    features: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "properties", "geometry"],
        properties: {
          type: { const: "Feature" },
          properties: {
            type: "object",
            required: ["osm_key", "osm_value", "type", "name"],
            properties: {
              osm_key: { type: "string" },
              osm_value: { type: "string" },
              type: { type: "string" },
              name: { type: "string" },
              state: { type: "string" },
              country: { type: "string" },
              countrycode: { type: "string" },
              extent: { type: "array", items: { type: "number" }, minItems: 4, maxItems: 4, description: "[west, north, east, south]" },
            },
          },
          geometry: { type: "object", required: ["type", "coordinates"], properties: { type: { const: "Point" }, coordinates: { type: "array", items: { type: "number" } } } },
        },
      },
    },
  },
};

/** What both Photon endpoints' OpenAPI entries share: the body and error schemas. */
export const PHOTON_BODIES = { content: PHOTON_FEATURE_COLLECTION_SCHEMA, foreign: { errorSchema: PHOTON_ERROR_SCHEMA } };

export const photonSearchEndpoint = defineEndpoint({
  path: "/api",
  summary: "Photon compatible forward geocoding (GeoJSON).",
  params: ["q", "limit", "lat", "lon", "zoom", "location_bias_scale", "lang"],
  datasets: ["places"],
  foreign: { errorBody: photonErrorBody },
  docs: {
    description: DESCRIPTION,
    ...PHOTON_BODIES,
    params: {
      q: `Text to search, at most ${Q_MAX} characters.`,
      limit: `Number of features, clamped to 1..${PHOTON_MAX_RESULTS}; default ${DEFAULT_LIMIT}.`,
      lat: "Location bias latitude (checked, no effect).",
      lon: "Location bias longitude (checked, no effect).",
      zoom: "Location bias radius as a map zoom (checked, no effect).",
      location_bias_scale: "Location bias weight (checked, no effect).",
      lang: "ISO 639-1 code of the country names, or default.",
    },
  },
  parse: (query) => {
    const q = (query.get("q") ?? "").trim();
    if (q === "") throw photonError("q parameter is required when no include categories are specified");
    if (q.length > Q_MAX || /[\u0000-\u001f\u007f-\u009f]/.test(q)) throw photonError(`Invalid value for 'q' parameter: 1 to ${Q_MAX} characters without control characters.`);
    photonPoint(query, false);
    checkBiasParameters(query);
    return { q, limit: photonLimit(query, DEFAULT_LIMIT), language: photonLanguage(query) };
  },
  handle: ({ q, limit, language }, data) => {
    const features = data.places.search(q, limit, 0).places.map((place): PhotonFeature => {
      const f = placeFacts(data.places, place);
      const feature: PhotonFeature = { tags: placeTags(f.featureCode, f.population), name: f.name, lat: f.lat, lon: f.lon };
      if (f.admin1) feature.state = f.admin1.name;
      if (f.country) {
        feature.country = f.country.names[language];
        feature.countrycode = f.country.iso2;
      }
      return feature;
    });
    return { body: featureCollectionJson(features), contentType: "application/json; charset=utf-8" };
  },
});
