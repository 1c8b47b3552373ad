/**
 * Search and point-read latency of a places dataset at full size (the scale rehearsal,
 * docs/rehearsals.md): sequential GETs through HTTP against a running server, 20 warm-up requests
 * then 200 timed per query, one JSON line per query with the median, p95 and max in
 * milliseconds, the search's total and the first place's id. The queries are those of
 * every places rehearsal: an exact name, a name with a qualifier, a 3-letter prefix, a typo and
 * the point read of Berlin.
 *
 *   npx tsx bench/scale/places-latency.ts BASE_URL API_KEY
 */
const WARM_UP = 20;
const TIMED = 200;

const [baseUrl, key] = process.argv.slice(2);
if (!baseUrl || !key) throw new Error("usage: places-latency.ts BASE_URL API_KEY");

const QUERIES: readonly { name: string; path: string }[] = [
  { name: "search Berlin", path: "/geocode/search/2/json?q=Berlin&limit=10&offset=0" },
  { name: "search Springfield, IL", path: `/geocode/search/2/json?q=${encodeURIComponent("Springfield, IL")}&limit=10&offset=0` },
  { name: "search prefix Ber", path: "/geocode/search/2/json?q=Ber&limit=10&offset=0" },
  { name: "search typo Berlni", path: "/geocode/search/2/json?q=Berlni&limit=10&offset=0" },
  { name: "point read gn:2950159", path: "/geocode/id/2/json?id=gn:2950159" },
];

for (const q of QUERIES) {
  const ms: number[] = [];
  let last: unknown;
  for (let i = 0; i < WARM_UP + TIMED; i++) {
    const started = performance.now();
    const response = await fetch(baseUrl + q.path, { headers: { "X-Api-Key": key } });
    const body = (await response.json()) as { code: number; content?: Record<string, unknown> };
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${q.path}: expected 200, got ${response.status} ${JSON.stringify(body)}`);
    if (i >= WARM_UP) ms.push(elapsed);
    last = body.content;
  }
  ms.sort((a, b) => a - b);
  const at = (p: number): number => Number(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(2));
  const content = last as { total?: number; points?: { id: string }[]; point?: { id: string; name: string } } | undefined;
  const first = content?.point ?? content?.points?.[0];
  process.stdout.write(JSON.stringify({ query: q.name, requests: TIMED, medianMs: at(0.5), p95Ms: at(0.95), maxMs: at(1), total: content?.total, first: first?.id }) + "\n");
}
