/**
 * Cost of the administrative description per call (server/admin-description/), over seeded random
 * (zone, point, instant) triples. Baseline in the same run: one `formatToParts` call on a cached
 * Intl.DateTimeFormat, the least any zone-aware answer pays. Also shown: what constructing a
 * formatter per call would cost (the reason formatters are cached per zone), and the NOAA sun
 * computation alone. The "warm" rows cycle through 4,096 inputs whose offsets are cached after the
 * first pass (as a server's "now" requests are); the cold row empties the offset cache each call.
 */
import { Bench } from "tinybench";
import { buildAdministrative } from "../server/admin-description/build-administrative.ts";
import { describeTimezone } from "../server/admin-description/describe-timezone.ts";
import { sunEvents } from "../server/admin-description/solar.ts";
import { clearOffsetCache } from "../server/admin-description/zone-clock.ts";
import { LANGUAGE_KEYS } from "../datasets/places/admin-types.ts";
import type { Admin1Info, ContinentInfo, CountryInfo, LocalizedNames } from "../datasets/places/admin-types.ts";
import { mulberry32 } from "../datasets/common/prng.ts";


// Untimed setup: inputs, and one warm-up call per zone so that formatters exist before timing
// (a server builds them on its first requests and keeps them).
const random = mulberry32(20261122);
const zones = Intl.supportedValuesOf("timeZone");
const N = 4096;
const cases = Array.from({ length: N }, () => ({
  zone: zones[Math.floor(random() * zones.length)]!,
  lat: -60 + random() * 130,
  lon: -180 + random() * 360,
  instant: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 365 * 86_400_000)),
}));
const names = Object.fromEntries(LANGUAGE_KEYS.map((k) => [k, `name ${k}`])) as LocalizedNames;
const continent: ContinentInfo = { code: "EU", names };
const country: CountryInfo = { iso2: "DE", iso3: "DEU", geonameId: 2921044, names, capital: "Berlin", continentCode: "EU", placeCount: 1 };
const admin1: Admin1Info = { code: "DE.16", geonameId: 2950157, name: "Berlin", placeCount: 1 };
for (const c of cases) describeTimezone(c.zone, c.lat, c.lon, c.instant);
const cachedFormatters = new Map(zones.map((z) => [z, new Intl.DateTimeFormat("en-US", { timeZone: z, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })]));

let i = 0;
const next = () => cases[i++ & (N - 1)]!;
let sink = 0;

const bench = new Bench({ time: 1500, warmup: true });
bench
  .add("baseline: one formatToParts, cached formatter", () => {
    const c = next();
    sink += cachedFormatters.get(c.zone)!.formatToParts(c.instant).length;
  })
  .add("new Intl.DateTimeFormat + formatToParts per call", () => {
    const c = next();
    sink += new Intl.DateTimeFormat("en-US", { timeZone: c.zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(c.instant).length;
  })
  .add("sunEvents (NOAA) alone", () => {
    const c = next();
    sink += sunEvents(c.lat, c.lon, c.instant.getTime()).kind.length;
  })
  .add("buildAdministrative, land (all members)", () => {
    const c = next();
    sink += buildAdministrative({ continent, country, admin1, timezone: c.zone, lat: c.lat, lon: c.lon }, c.instant).timezone.GMT;
  })
  .add("buildAdministrative, at sea (timezone only)", () => {
    const c = next();
    sink += buildAdministrative({ timezone: c.zone, lat: c.lat, lon: c.lon }, c.instant).timezone.GMT;
  })
  .add("buildAdministrative, cold offset cache (clear + build)", () => {
    const c = next();
    clearOffsetCache();
    sink += buildAdministrative({ continent, country, admin1, timezone: c.zone, lat: c.lat, lon: c.lon }, c.instant).timezone.GMT;
  });
await bench.run();

const baseMean = (bench.tasks[0]!.result as unknown as { latency: { mean: number } }).latency.mean;
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { mean: number; p99: number; sd: number }; throughput: { mean: number } };
    return {
      task: t.name,
      "ops/s": Math.round(r.throughput.mean),
      "mean µs": (r.latency.mean * 1000).toFixed(2),
      "p99 µs": (r.latency.p99 * 1000).toFixed(2),
      "× baseline time": (r.latency.mean / baseMean).toFixed(2),
    };
  }),
);
console.log(`inputs: ${N} seeded (zone, point, instant) over ${zones.length} zones; heap used: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MiB; sink ${sink % 10}`);
