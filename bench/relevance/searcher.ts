/**
 * How the outside view asks its queries: the GeoNames ids of the first `limit` answers, either in
 * process through the /geocode/search endpoint's own `parseQ` and `PlacesData.search`, or over
 * HTTP from a running server's /geocode/search/2/json with an API key (`--http URL --key KEY`;
 * the answer's envelope holds the points in `content.points`).
 */
import { parseQ } from "../../server/api/params.ts";
import { Query } from "../../server/api/query.ts";
import type { PlacesData } from "../../server/places/places-data.ts";

export type Searcher = (q: string, limit: number) => Promise<number[]>;

/** The endpoint's own parsing of `q` first (it trims: "San " is asked as "San"), then the search. */
export function inProcessSearcher(data: PlacesData): Searcher {
  const ix = data.index;
  return (q, limit) => {
    const text = parseQ(new Query(new URLSearchParams({ q }), ["q"]));
    return Promise.resolve(data.search(text, limit, 0).places.map((p) => ix.record(p).geonameId!));
  };
}

const GN_ID = /^gn:(\d+)$/;

export function httpSearcher(baseUrl: string, key: string): Searcher {
  const base = baseUrl.replace(/\/+$/, "");
  return async (q, limit) => {
    const url = `${base}/geocode/search/2/json?q=${encodeURIComponent(q)}&limit=${limit}`;
    const res = await fetch(url, { headers: { "x-api-key": key } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url}: expected 200, got ${res.status}: ${body.slice(0, 200)}`);
    const points = (JSON.parse(body) as { content?: { points?: { id: string }[] } }).content?.points;
    if (!Array.isArray(points)) throw new Error(`GET ${url}: expected the envelope's content.points, got ${body.slice(0, 200)}`);
    return points.map(({ id }) => {
      const m = GN_ID.exec(id);
      if (m === null) throw new Error(`GET ${url}: expected point ids gn:<number>, got ${JSON.stringify(id)}`);
      return Number(m[1]);
    });
  };
}
