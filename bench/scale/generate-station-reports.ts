/**
 * Scale rehearsal input: one day of global station reports at real volume, in the upstream
 * layouts the nightly downloads, under `<OUT>/tgftp.nws.noaa.gov/` (for `--mirror`):
 * - 24 NOAA METAR cycle files `data/observations/metar/cycles/HHZ.TXT` (a `YYYY/MM/DD HH:MM` line
 *   before each report), 5,000 reports each: every station reports every hour;
 * - SYNOP at the main hours (00, 06, 12, 18 UTC): one file of WMO bulletins per hour
 *   `SL.us008001/DF.an/DC.sflnd/DS.synop/sn.HH.txt` (SOH, sequence number, heading
 *   `SMXX01 KWBC DDHH00`, `AAXX DDHHi` lines, reports ended by `=`, ETX), 10,000 stations each;
 * plus `stations-nightly.config.json`, the nightly's stations dataset reading them.
 *
 * Every report is a real one of the shared corpora with its station and time replaced: METAR from
 * aviationweather-na-2025-09-09_12.csv and metars-global-2186.txt (22,123 reports), the station
 * identifier and day-hour replaced (the minute kept), SYNOP from the OGIMET Argentine file and
 * the Romanian and Cuban bulletins (17,928 reports), the block-station number and the day and hour
 * of section 0 replaced (the wind indicator kept). Stations are real: 5,000 ICAO identifiers of
 * NOAA's nsd_cccc.txt and 10,000 WMO indexes of the WMO list, spread evenly over the lists. Each
 * station takes a different real report every hour, the same one the same day and hour on every
 * run (reproducible).
 *
 *   npx tsx bench/scale/generate-station-reports.ts OUT_DIR YYYY-MM-DD
 */
import { promises as fs, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { EMBEDDED_DIR, SHARED_DATA_DIR } from "../../datasets/common/paths.ts";
import { splitReports } from "../../pipeline/stations/ingest/split.ts";

const HOST = "tgftp.nws.noaa.gov";
const CYCLES = "data/observations/metar/cycles";
const SYNOP_DIR = "SL.us008001/DF.an/DC.sflnd/DS.synop";
const METAR_STATIONS = 5_000;
const SYNOP_STATIONS = 10_000;
const MAIN_HOURS = [0, 6, 12, 18];

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** Evenly spread `n` of `list` (in list order). */
function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length < n) throw new Error(`expected at least ${n} stations in the list, got ${list.length}`);
  return Array.from({ length: n }, (_, k) => list[Math.floor((k * list.length) / n)]!);
}

async function reportsOf(files: string[], family: "METAR" | "SYNOP"): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const content = readFileSync(file).toString("latin1");
    for (const r of await splitReports(content, path.basename(file))) if (r.family === family) out.push(r.text);
  }
  return out;
}

/** METAR bodies after the station and time groups: [minute, rest]. */
async function metarBodies(): Promise<[string, string][]> {
  const dir = path.join(SHARED_DATA_DIR, "metar");
  const texts = await reportsOf([path.join(dir, "aviationweather-na-2025-09-09_12.csv"), path.join(dir, "metars-global-2186.txt")], "METAR");
  const out: [string, string][] = [];
  for (const t of texts) {
    const m = /^(?:(?:METAR|SPECI)\s+)?(?:COR\s+)?[A-Z][A-Z0-9]{3}\s+\d{4}(\d{2})Z\s+(.*?)\s*=?\s*$/.exec(t);
    if (m) out.push([m[1]!, m[2]!]);
  }
  return out;
}

/** SYNOP bodies after section 0 and the station: [wind indicator, rest]. */
async function synopBodies(): Promise<[string, string][]> {
  const dir = path.join(SHARED_DATA_DIR, "synop");
  const files = [path.join(dir, "ogimet-argentina-2026-03_days01-17.txt"), path.join(dir, "cuba", "SMCU20_MUHV_310000.txt"), ...readdirSync(path.join(dir, "romania")).filter((f) => f.endsWith(".txt")).map((f) => path.join(dir, "romania", f))];
  const out: [string, string][] = [];
  for (const t of await reportsOf(files, "SYNOP")) {
    const m = /^AAXX\s+\d{4}([0-4/])\s+\d{5}\s+(.*?)\s*=?\s*$/.exec(t);
    if (m && !/\bNIL\b/.test(m[2]!)) out.push([m[1]!, m[2]!]);
  }
  return out;
}

function stationLists(): { icao: string[]; wmo: string[] } {
  const nsd = readFileSync(path.join(SHARED_DATA_DIR, "stations", "nsd_cccc.txt"), "latin1").split("\n");
  const icao = [...new Set(nsd.map((l) => l.split("|")[0]!).filter((c) => /^[A-Z][A-Z0-9]{3}$/.test(c)))];
  const csv = gunzipSync(readFileSync(path.join(EMBEDDED_DIR, "stations", "wmo_stations.csv.gz"))).toString("latin1").split("\n").slice(1);
  const wmo = [...new Set(csv.map((l) => l.split(",")[0]!).filter((i) => /^\d{4,5}$/.test(i)).map((i) => pad(Number(i), 5)))];
  return { icao: spread(icao, METAR_STATIONS), wmo: spread(wmo, SYNOP_STATIONS) };
}

const [out, dayText] = process.argv.slice(2);
const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dayText ?? "");
if (!out || !dm) throw new Error("usage: generate-station-reports.ts OUT_DIR YYYY-MM-DD");
const started = Date.now();
const [year, month, day] = [Number(dm[1]), Number(dm[2]), Number(dm[3])];
const dayIndex = Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
const metars = await metarBodies();
const synops = await synopBodies();
const { icao, wmo } = stationLists();

await fs.mkdir(path.join(out, HOST, CYCLES), { recursive: true });
let metarCount = 0;
for (let hour = 0; hour < 24; hour++) {
  const lines: string[] = [];
  for (const [k, station] of icao.entries()) {
    const [minute, rest] = metars[(k * 7919 + (dayIndex * 24 + hour) * METAR_STATIONS) % metars.length]!;
    lines.push(`${year}/${pad(month)}/${pad(day)} ${pad(hour)}:${minute}`, `${station} ${pad(day)}${pad(hour)}${minute}Z ${rest}`, "");
    metarCount++;
  }
  await fs.writeFile(path.join(out, HOST, CYCLES, `${pad(hour)}Z.TXT`), lines.join("\n"));
}

await fs.mkdir(path.join(out, HOST, SYNOP_DIR), { recursive: true });
let synopCount = 0;
const synopFiles: string[] = [];
for (const [h, hour] of MAIN_HOURS.entries()) {
  const bulletins: string[] = [];
  for (let first = 0; first < wmo.length; first += 25) {
    const body: string[] = [];
    let indicator = "";
    for (let k = first; k < Math.min(first + 25, wmo.length); k++) {
      const [iw, rest] = synops[(k * 7919 + (dayIndex * 4 + h) * SYNOP_STATIONS) % synops.length]!;
      // Section 0 again whenever the wind indicator changes (it holds for the reports after it).
      if (iw !== indicator) body.push(`AAXX ${pad(day)}${pad(hour)}${iw}`);
      indicator = iw;
      body.push(`${wmo[k]} ${rest}=`);
      synopCount++;
    }
    bulletins.push(`\x01\r\r\n${pad((first / 25) % 1000, 3)}\r\r\nSMXX01 KWBC ${pad(day)}${pad(hour)}00\r\r\n${body.join("\r\r\n")}\r\r\n\x03`);
  }
  const name = `sn.${pad(hour)}.txt`;
  synopFiles.push(`https://${HOST}/${SYNOP_DIR}/${name}`);
  await fs.writeFile(path.join(out, HOST, SYNOP_DIR, name), bulletins.join("\n"));
}

const config = {
  $comment: "Scale rehearsal of the stations dataset (docs/rehearsals.md): one day of generated reports through --mirror (bench/scale/generate-station-reports.ts), merged into the previous release's histories.",
  datasets: {
    stations: {
      sources: {
        noaa: path.join(SHARED_DATA_DIR, "stations", "nsd_cccc.txt"),
        wmo: path.join(EMBEDDED_DIR, "stations", "wmo_stations.csv.gz"),
        metar: [{ template: `https://${HOST}/${CYCLES}/{HH}Z.TXT`, lastHours: 24 }],
        synop: synopFiles,
      },
      args: ["--month", "{date}"],
      tolerances: [{ count: "stations", minRatio: 0.8 }],
    },
  },
};
await fs.writeFile(path.join(out, "stations-nightly.config.json"), JSON.stringify(config, null, 1));
process.stderr.write(
  JSON.stringify({ msg: "station reports generated", day: dayText, metarReports: metarCount, synopReports: synopCount, metarCorpus: metars.length, synopCorpus: synops.length, stations: { METAR: icao.length, SYNOP: wmo.length }, elapsedS: (Date.now() - started) / 1000 }) + "\n",
);
