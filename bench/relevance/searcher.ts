/**
 * How the outside view asks its queries: the GeoNames ids of the first `limit` answers, either in
 * process through `PlacesData.search` (the function the /geocode/search endpoint calls) or over
 * HTTP from a running server's /geocode/search/2/json with an API key (`--http URL --key KEY`).
 */
import type { PlacesData } from "../../server/places/places-data.ts";

export type Searcher = (q: string, limit: number) => Promise<number[]>;

export function inProcessSearcher(data: PlacesData): Searcher {
  const ix = data.index;
  return (q, limit) => Promise.resolve(data.search(q, limit, 0).places.map((p) => ix.geonameId[p]!));
}

const GN_ID = /^gn:(\d+)$/;

export function httpSearcher(baseUrl: string, key: string): Searcher {
  const base = baseUrl.replace(/\/+$/, "");
  return async (q, limit) => {
    const url = `${base}/geocode/search/2/json?q=${encodeURIComponent(q)}&limit=${limit}`;
    const res = await fetch(url, { headers: { "x-api-key": key } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url}: expected 200, got ${res.status}: ${body.slice(0, 200)}`);
    const { points } = JSON.parse(body) as { points: { id: string }[] };
    return points.map(({ id }) => {
      const m = GN_ID.exec(id);
      if (m === null) throw new Error(`GET ${url}: expected point ids gn:<number>, got ${JSON.stringify(id)}`);
      return Number(m[1]);
    });
  };
}
