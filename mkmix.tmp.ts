import { writeFileSync } from "node:fs";
import { buildMixes, readPlaces, reportingStations } from "./bench/http-mixes.ts";
const dataDir = "/work/main/.cache/test-data";
const mixes = buildMixes(await readPlaces(), await reportingStations(dataDir), 20261123, 65536);
writeFileSync("/tmp/mixes.json", JSON.stringify(Object.fromEntries(mixes.map((m) => [m.name, m.paths]))));
