import { errors } from "../api/api-error.ts";
import { parseId } from "../api/params.ts";
import { contentSchema, observationsJson } from "../stations/observations-content.ts";
import { defineEndpoint } from "./endpoint.ts";

const ICAO = /^[A-Z][A-Z0-9]{3}$/;

const DESCRIPTION = `Decoded METAR/SPECI observations of one station, newest first in \`latest\` and all
retained ones in \`history\` (keyed by UNIX timestamp, seconds).

- **id**: the station's four-character ICAO identifier (a letter, then three letters or digits),
  case-insensitive (\`kjfk\` = \`KJFK\`). Anything else is a 400.
- **Known stations**: those of the NOAA station list (nsd_cccc) and any station that has reported.
  An unknown identifier is a 404. A known station without an observation in the current data is a
  200 with \`message\` set and \`latest\` and \`history\` null; otherwise \`message\` is null.
- **History**: the observations of the retention window (default 10 days before the station's
  newest report; GEODATA_STATIONS_RETENTION_DAYS). A corrected report (COR) replaces the original.
- **Record units**: wid = WMO ww (4677) mapped from the METAR weather groups; visibility in metres;
  temperature in °C (the precise remark T group when present); cloudCover in percent (octas x 12.5,
  layer amounts FEW 1.5, SCT 3.5, BKN 6, OVC 8 octas); precipitation in mm over the past hour (P
  group) and precipitationConvective the same amount when showers or thunderstorms are reported,
  else 0; cloudTypes is never given for METAR. Members the report does not give are absent.`;

export const weatherMetarEndpoint = defineEndpoint({
  path: "/weather/METAR/2/json",
  summary: "Decoded observations of a METAR station (ICAO identifier).",
  params: ["id"],
  datasets: ["stations"],
  cache: "observations",
  docs: {
    description: DESCRIPTION,
    content: contentSchema("METAR"),
    errors: { "404": "No station with this ICAO identifier is known." },
    params: { id: "ICAO station identifier: a letter then three letters or digits, case-insensitive, e.g. KJFK." },
  },
  parse: (query) => {
    const raw = parseId(query);
    const id = raw.toUpperCase();
    if (!ICAO.test(id)) throw errors.invalidParameter("id", raw, "a four-character ICAO station identifier (a letter, then three letters or digits), e.g. KJFK");
    return { id };
  },
  handle: ({ id }, data) => ({ contentJson: observationsJson(data.stations, "METAR", id) }),
});
