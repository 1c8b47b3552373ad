import { errors } from "../api/api-error.ts";
import { parseId } from "../api/params.ts";
import { contentSchema, observationsJson } from "../stations/observations-content.ts";
import { defineEndpoint } from "./endpoint.ts";

const WMO_INDEX = /^\d{5}$/;

const DESCRIPTION = `Decoded SYNOP (FM 12, land stations) observations of one station, newest in
\`latest\` and all retained ones in \`history\` (keyed by UNIX timestamp, seconds).

- **id** (required): the station's five-digit WMO index IIiii (block and station number), e.g.
  \`87582\`. Anything else is a 400.
- **Known stations**: those of the WMO and NOAA station lists and any station that has reported.
  An unknown index is a 404. A known station without an observation in the current data is a 200
  with \`message\` set and \`latest\` and \`history\` null; otherwise \`message\` is null.
- **Required members**: \`message\`, \`latest\` and \`history\` are always present (null when not
  applicable). In a record only \`timestamp\` is always present; the others only when reported.
- **Dates**: a SYNOP gives only day and hour. Year and month come from the bulletin's file name or
  the pipeline's --month option; reports whose month cannot be known are kept apart, undated, and
  never served with a guessed timestamp. The timestamp is the nominal hour (YYGG).
- **Corrections**: a corrected bulletin (CCA, CCB, ...) replaces the original report.
- **Record units**: wid = ww of 7wwW1W2 (automatic stations' wawa mapped to the nearest ww);
  visibility in metres (VV, lower bound of its class); temperature in °C; cloudCover = N octas x
  12.5 (9, sky obscured, = 100); cloudTypes = CL, CM, CH code figures; precipitation in mm over the
  reported period (6RRRtR where iR says, code table 1819: 1 section 1, 2 section 3, 0 section 1
  else section 3, 3 none fell = 0, 4 not measured = absent); precipitationConvective the same
  amount when ww is 80-99 or W1 is 8 or 9, else 0.
- **Malformed reports**: section 1 groups come in a fixed order; the group in its place is used, a
  repeated or out-of-order group never is. A \`222\` group in the place of Nddff is Nddff, not
  the start of section 2.`;

export const weatherSynopEndpoint = defineEndpoint({
  path: "/weather/SYNOP/2/json",
  summary: "Decoded observations of a SYNOP station (WMO index).",
  params: ["id"],
  datasets: ["stations"],
  cache: "observations",
  docs: {
    description: DESCRIPTION,
    content: contentSchema("SYNOP"),
    errors: { "404": "No station with this WMO index is known." },
    params: { id: "WMO station index: five digits (block number and station number), e.g. 87582. Required." },
  },
  parse: (query) => {
    const raw = parseId(query);
    if (!WMO_INDEX.test(raw)) throw errors.invalidParameter("id", raw, "a five-digit WMO station index, e.g. 87582");
    return { id: raw };
  },
  handle: ({ id }, data) => ({ contentJson: observationsJson(data.stations, "SYNOP", id) }),
});
