import { LIMIT_DEFAULT, LIMIT_MAX, OFFSET_MAX, parseLimit, parseOffset, parseQ } from "../api/params.ts";
import { POINT_SCHEMA } from "../places/point-schema.ts";
import { defineEndpoint } from "./endpoint.ts";

const DESCRIPTION = `Forward geocoding over the GeoNames gazetteer (the embedded default holds the
204,587 places of GeoNames \`cities500\` (2023) merged with the 2025 \`cities15000\`).

- **Folding**: case, diacritics and punctuation are ignored (Zürich = zurich = ZURICH,
  Kraków = Krakow, São Paulo = sao paulo); apostrophes and full stops vanish (N'Djamena = Ndjamena,
  D.C. = DC); hyphens and other punctuation count as spaces.
- **Names**: a place is found by its GeoNames name, its ASCII name and its alternate names,
  including other scripts (Москва, 東京, मुंबई). Historic and colloquial names and airport codes
  from alternateNamesV2 match only exactly.
- **Matching**: a name equal to the text (exact), a name the text begins ("ber" finds Berlin),
  or a typo (edit distance 1 for a folded query of 4 to 7 characters, 2 from 8 characters; an
  adjacent transposition counts as 1 edit) of a place's main or ASCII name, or of a Latin-script
  alternate name of the most important places ("New Yrok"). Typos are looked for only when the
  text is not the name of a place (that the qualifiers let through): a name that exists is not
  taken for a typo ("Pudong" finds Pudong, not Yudong).
- **Qualifiers**: text after a comma restricts the search: "Paris, US", "Portland, Oregon",
  "Springfield, IL", "Cambridge, United Kingdom". Each qualifier must name the place's country
  (ISO2, ISO3, or the country's name in any of the 23 languages of the spec, or CLDR's short
  forms such as UK) or its admin-1 area (name, or its letter code such as IL or ENG, the full
  GeoNames code such as US.IL, or its ISO 3166-2 code such as ON / CA-ON or NSW / AU-NSW).
  A qualifier that names several things (CA: Canada and California) accepts any of them; one
  that leaves no place filters nothing. A part that names no known area filters nothing either:
  the places whose areas' names resemble it come first ("Springfield, Illinoise"). Without a
  comma, when the whole text matches nothing, its trailing words are tried as a qualifier ("Paris
  France", "Portland Oregon").
- **Order**: one score per place, in orders of magnitude of population: log10(population + 1)
  minus a match penalty: 0 for the place's own (GeoNames or ASCII) name (0.3 for later places of
  the same name), 0.2 for an alternate name (up to 1.7 when the text is also the own name of a big
  city or a capital: "Victoria" finds Victoria, Hong Kong Island, before Hong Kong), 2.5 for a
  historic or colloquial name or a code, 0.7 for a prefix of its own name (so "Lago" completes to
  Lagos before a village called Lago), 2.5 or 5 for a prefix of an alternate name, 2 for a one-edit
  typo (1.2 for a transposition, 3 for two edits, 0.5 more when the first letter differs, 2 more
  for an alternate name); exact own-name matches add a small capital/seat bonus (PPLC +0.3, PPLA
  +0.2, ...). Typos and prefixes of other alternate names follow the other matches, but for the
  best of them when the text is no name. Ties by importance, then GeoNames id: the order is total
  and deterministic, so paging with \`offset\` never repeats or skips a place.
- **total** is the number of distinct places matching the query (typos only when the text is
  no name), whatever \`limit\` and \`offset\` are. \`limit\` defaults to ${LIMIT_DEFAULT}
  (maximum ${LIMIT_MAX}); \`limit=0\` returns only \`total\` and an empty \`points\`.
- **No match** is not an error: 200 with \`total\` 0 and an empty \`points\` array; the same for
  an \`offset\` past the end.
- **Point**: \`id\` is \`gn:\` followed by the GeoNames id (stable across rebuilds, accepted by
  /geocode/id and /weather/id); \`name\` is the GeoNames name (whichever name matched);
  \`address\` is [admin-1 name, country name in English], leaving out what is unknown; \`type\`
  is GeoNames' description of the feature code (e.g. "capital of a political entity",
  "populated place").`;

export const geocodeSearchEndpoint = defineEndpoint({
  path: "/geocode/search/2/json",
  summary: "Forward geocoding: free-text search returning points.",
  params: ["q", "limit", "offset"],
  datasets: ["places"],
  cache: "release",
  docs: {
    description: DESCRIPTION,
    content: {
      type: "object",
      required: ["total", "points"],
      properties: {
        total: { type: "integer", minimum: 0, description: "Number of places matching the query, over all pages (typos only when the text is no name)." },
        points: { type: "array", items: POINT_SCHEMA, description: "The page [offset, offset + limit) of the ordered matches." },
      },
    },
    params: {
      q: "Text to search: a place name, optionally followed by comma-separated qualifiers (country or admin-1 area). 1 to 200 characters.",
      limit: `Number of points to return, 0 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}. 0 returns only total.`,
      offset: `Index of the first match to return, 0 to ${OFFSET_MAX}; default 0.`,
    },
  },
  parse: (query) => ({ q: parseQ(query), limit: parseLimit(query), offset: parseOffset(query) }),
  handle: ({ q, limit, offset }, data) => {
    const page = data.places.search(q, limit, offset);
    return { content: { total: page.total, points: page.places.map((p) => data.places.point(p)) } };
  },
});
