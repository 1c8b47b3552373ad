/**
 * Forward geocoding read where it lies: CPU per search (the search and the points of its page of
 * 10, as /geocode/search answers) and positioned reads per search, through the file source (what
 * the server does: pread through the page cache) and through a memory source over the same
 * payload (the bound a memory mapping could reach: no system call, no copy), by kind of query.
 * Queries (seeded) come from the embedded gazetteer's own records: exact names, 3-5 letter
 * prefixes, one swap of two neighbouring letters, "name, ISO2", and "name country" (a trailing
 * qualifier, tried after the whole text matched nothing).
 *   npm run bench -- search        (embedded default, built into .cache/bench-data when missing)
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openEnvelope, openEnvelopeFile } from "../datasets/artifact/envelope.ts";
import { memorySource, type ByteSource } from "../datasets/common/byte-source.ts";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { mulberry32 } from "../datasets/common/prng.ts";
import { PlacesIndex } from "../datasets/places/index-reader.ts";
import { locateDataset } from "../datasets/releases/locate.ts";
import { buildDefault } from "../pipeline/build-default.ts";
import { PlacesData } from "../server/places/places-data.ts";

const dataDir = path.join(PROJECT_ROOT, ".cache", "bench-data");
await buildDefault(readConfig({ GEODATA_DATA_DIR: dataDir }), silentLogger, { only: ["places"] });
const file = path.join((await locateDataset(dataDir, "places")).dir, DATASETS.places.file);

/** A source that counts its reads. */
function counted(source: ByteSource): { source: ByteSource; reads: () => number } {
  let reads = 0;
  const into = source.readInto?.bind(source);
  return {
    source: {
      read: (offset, length) => (reads++, source.read(offset, length)),
      ...(into ? { readInto: (offset: number, length: number, target: Uint8Array) => (reads++, into(offset, length, target)) } : {}),
      close: () => source.close?.(),
    },
    reads: () => reads,
  };
}

const spec = DATASETS.places;
const opened = openEnvelopeFile(file, { magic: spec.magic, formatVersion: spec.formatVersion, file });
const fromFile = counted(opened.source);
const fileData = new PlacesData(PlacesIndex.open(fromFile.source, opened.metadata, file));
const env = openEnvelope(readFileSync(file), { magic: spec.magic, formatVersion: spec.formatVersion, file, skipChecksum: true });
const memoryData = new PlacesData(PlacesIndex.open(memorySource(env.payload), env.metadata, file));

type Kind = "exact" | "prefix" | "typo" | "qualified" | "trailing";
const random = mulberry32(20261128);
const queries: { kind: Kind; q: string }[] = [];
const ix = fileData.index;
for (let i = 0; i < 2000; i++) {
  const place = Math.floor(random() * ix.placeCount);
  const { name } = ix.record(place);
  const iso2 = fileData.point(place).ISO2;
  const country = fileData.country(iso2)?.names.EN ?? iso2;
  const cps = [...name];
  const at = 1 + Math.floor(random() * Math.max(1, cps.length - 2));
  const swapped = cps.length > 3 ? [...cps.slice(0, at - 1), cps[at], cps[at - 1], ...cps.slice(at + 1)].join("") : name;
  queries.push({ kind: "exact", q: name }, { kind: "prefix", q: cps.slice(0, 3 + Math.floor(random() * 3)).join("") }, { kind: "typo", q: swapped });
  queries.push({ kind: "qualified", q: `${name}, ${iso2}` }, { kind: "trailing", q: `${name} ${country}` });
}

/** What /geocode/search does: the search and the points of its page. */
const answer = (data: PlacesData, q: string): void => {
  for (const p of data.search(q, 10, 0).places) data.point(p);
};

for (const { q } of queries) {
  answer(fileData, q);
  answer(memoryData, q);
}
const kinds: Kind[] = ["exact", "prefix", "typo", "qualified", "trailing"];
const rows = [];
for (const kind of [...kinds, "all" as const]) {
  const set = queries.filter((x) => kind === "all" || x.kind === kind);
  const measure = (data: PlacesData): { cpu: number[]; reads: number } => {
    const cpu: number[] = [];
    const readsBefore = fromFile.reads();
    for (let round = 0; round < 3; round++) {
      for (const { q } of set) {
        const c = process.cpuUsage();
        answer(data, q);
        const u = process.cpuUsage(c);
        cpu.push(u.user + u.system);
      }
    }
    return { cpu: cpu.sort((a, b) => a - b), reads: (fromFile.reads() - readsBefore) / (3 * set.length) };
  };
  const f = measure(fileData);
  const m = measure(memoryData);
  const mean = (a: number[]): number => a.reduce((s, v) => s + v, 0) / a.length;
  const at = (a: number[], p: number): number => a[Math.min(a.length - 1, Math.floor(p * a.length))]!;
  rows.push({
    kind,
    searches: set.length,
    "reads / search": f.reads.toFixed(1),
    "file: CPU mean µs": mean(f.cpu).toFixed(0),
    "file: p50 / p99 µs": `${at(f.cpu, 0.5)} / ${at(f.cpu, 0.99)}`,
    "memory: CPU mean µs": mean(m.cpu).toFixed(0),
    "memory: p50 / p99 µs": `${at(m.cpu, 0.5)} / ${at(m.cpu, 0.99)}`,
  });
}
console.log(`places.idx ${(env.payload.byteLength / 2 ** 20).toFixed(1)} MiB payload, ${ix.placeCount} places; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} on ${os.cpus().length} CPUs`);
console.table(rows);
