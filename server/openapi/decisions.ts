/**
 * The decisions taken where the spec says "not shown". The same list is in README.md
 * ("Decisions where the spec is silent").
 * Each domain appends its own entries.
 */
export interface Decision {
  topic: string;
  decision: string;
}

export const DECISIONS: readonly Decision[] = [
  { topic: "Error statuses beyond 400/401/503", decision: "404 for an unknown path (with a valid key) and for an id that matches nothing; 405 (with Allow: GET, HEAD) for any other method; 413 for a request with a body; 414 for a URL over 8192 bytes; 431 for headers over 16 KiB; 500 only for a bug, with a generic message. Every error uses the spec's error body." },
  { topic: "Order of checks", decision: "URL length (414), body (413), method (405), then /health and /openapi.json without a key, then the key (401), the path (404), the parameters (400), the datasets (503)." },
  { topic: "Unknown and repeated parameters", decision: "A query parameter the endpoint does not define, or any parameter given more than once, is a 400 naming it." },
  { topic: "Number syntax", decision: "lat and lon are plain decimal numbers (optional sign, digits, optional fraction, at most 32 characters); exponents, hex, NaN, Infinity, blanks and trailing characters are a 400. Range limits are inclusive." },
  { topic: "limit and offset", decision: "limit: integer 0 to 100, default 10 (0 returns only total). offset: integer 0 to 1,000,000, default 0. Out of range is a 400, not silently clamped." },
  { topic: "Texts", decision: "q: 1 to 200 characters after trimming; id: 1 to 64 characters after trimming; control characters are a 400." },
  { topic: "Authentication", decision: "Keys come from GEODATA_API_KEYS (comma-separated, 16 to 256 printable characters each); with none configured, npm start generates a random key per run. No fixed default key, no key in the query string, keys never logged. Rate limits: none in the service (put a proxy in front)." },
  { topic: "Compression", decision: "Bodies over 1024 bytes are sent with br or gzip when Accept-Encoding allows (br preferred at equal weight); Vary: Accept-Encoding always." },
  { topic: "HEAD", decision: "Every GET path answers HEAD with the same status and headers (Content-Length of the GET body) and no body." },
  { topic: "Health", decision: "GET /health needs no key and answers 200 while the process serves, with state ready or degraded and each dataset's status, version, build time and counts." },
  { topic: "Administrative: timezone.GMT", decision: "The UTC offset at the request's instant in whole minutes east of UTC: +05:30 is 330, Chatham +12:45 is 765, Etc/GMT+10 (POSIX sign, UTC-10) is -600. An integer number of hours could not express half- and quarter-hour zones." },
  { topic: "Administrative: timezone.isDST", decision: "1 when the offset at the instant is larger than the zone's standard offset of that year, taken as the smaller of its offsets on 21 June and 21 December (12:00 UTC); else 0. Right in both hemispheres (Sydney in January is 1) and for Lord Howe's 30-minute DST; Europe/Dublin is 1 in summer although tzdata models Irish winter time as a negative DST; Morocco's Ramadan hour is 0." },
  { topic: "Administrative: times", decision: "UNIXTimestamp is the request's instant in whole seconds. timeFormatted is the local time at that instant as YYYY-MM-DDTHH:MM:SS+HH:MM (UTC written +00:00, never Z). sunrise and sunset use the same format with the offset in force at that moment, rounded to the minute: the NOAA solar position algorithm (sun's centre at zenith 90.833°, sea level, about a minute of accuracy within 72° of the equator) for the point's coordinates, around the solar noon nearest local midday of the instant's local date." },
  { topic: "Administrative: polar day and night", decision: "When the sun stays above the horizon all that local day, sunrise and sunset are both the string polar-day; when it stays below, both are polar-night. Never an empty string." },
  { topic: "Administrative: members present", decision: "A member is absent when unknown: at sea only timezone is given (an Etc/GMT±N zone); administrative1 is absent where the point lies in no admin-1 area. country.count and administrative1.count are integers (never strings): the number of places of our gazetteer (the GeoNames dump the places dataset was built from, cities500 in the embedded default) in that country or admin-1 area." },
  { topic: "Administrative: localized names", decision: "Country and continent names from CLDR (cldr-localenames-full, default forms, e.g. Côte d’Ivoire, Türkiye). BR is Brazilian Portuguese (pt), NO Norwegian Bokmål (nb), SR Serbian in Cyrillic (sr), ZH Simplified Chinese (zh). A name missing in one language is the English one; GeoNames codes CLDR does not know (AN Netherlands Antilles, CS Serbia and Montenegro) carry GeoNames' English name in every language. The continent is the country's GeoNames continent code (AF, AS, EU, NA, OC, SA, AN) named after the M.49 regions 002, 142, 150, 003, 009, 005 and the territory AQ." },
];
