/**
 * Child process of bench/geocode.bench.ts: runs only the places step with the given arguments
 * and prints one JSON line with its counts, wall time and peak RSS (the process's own maxRSS).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { DATASETS } from "../datasets/catalog.ts";
import { readConfig } from "../datasets/common/config.ts";
import { silentLogger } from "../datasets/common/log.ts";
import { readEnvelopeHeader } from "../datasets/artifact/envelope.ts";
import { placesStep } from "../pipeline/places/step.ts";

const config = readConfig(process.env);
const started = performance.now();
await placesStep.run(process.argv.slice(2), { config, logger: silentLogger });
const seconds = (performance.now() - started) / 1000;
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
const file = path.join(config.dataDir, DATASETS.places.file);
const bytes = readFileSync(file);
const { metadata } = readEnvelopeHeader(bytes, { magic: DATASETS.places.magic, formatVersion: DATASETS.places.formatVersion, file });
process.stdout.write(JSON.stringify({
  places: metadata.counts.places,
  names: metadata.counts.names,
  seconds,
  peakRssMb,
  indexBytes: bytes.byteLength,
}) + "\n");
