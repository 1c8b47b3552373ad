/**
 * Splits a report file into single reports. Accepted layouts, byte for byte as upstream sends them:
 * - WMO bulletins (SOH, sequence number, abbreviated heading `TTAAii CCCC YYGGgg [BBB]`, a
 *   `METAR`/`SPECI` line or `AAXX YYGGiw` section 0, reports ended by `=`, ETX, ZCZC/NNNN), several
 *   per file; CR, NUL and other stray bytes are left to the decoders, which list them;
 * - one report per line (continuation lines indented), with or without `=`, each SYNOP with its own
 *   `AAXX YYGGiw`; NOAA cycle/station files whose reports follow a `YYYY/MM/DD HH:MM` line;
 * - aviationweather.gov CSV with a `raw_text` column (and `observed_utc`, used as the date);
 * - OGIMET getsynop lines `IIiii,YYYY,MM,DD,HH,mm,AAXX ...=`, whose date fields date the report.
 * The text is read as latin1 so that every byte is one character and offsets are byte offsets.
 */
import { referenceFromDateTime, type ReferenceDate } from "./dating.ts";
import { readCsvRows, type CsvRow } from "./csv-rows.ts";

export type ReportFamily = "METAR" | "SYNOP";

export interface ReportText {
  family: ReportFamily | undefined;
  /** The report; SYNOPs carry their section 0 (`AAXX YYGGiw`) in front. */
  text: string;
  /** 1-based line of the file where the report starts. */
  line: number;
  /** BBB of the bulletin heading (CCA, RRB, ...), when any. */
  bulletinBbb?: string;
  /** A per-report reference date (CSV row, NOAA date line). */
  reference?: ReferenceDate;
}

const RE_HEADING = /^([A-Z]{4})(\d{2})?\s+([A-Z]{4})\s+(\d{6})(?:\s+([A-Z]{3}))?\s*$/;
const RE_SEQUENCE = /^\d{3,5}\s*$/;
const RE_SECTION0 = /^AAXX\s+(\S{5})(?:\s+|$)/;
const RE_NOAA_DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}\s*$/;
/** OGIMET getsynop lines: `IIiii,YYYY,MM,DD,HH,mm,AAXX ...=` (the date of each report given). */
const RE_OGIMET = /^(\d{5}),(\d{4}),(\d{2}),(\d{2}),(\d{2}),(\d{2}),(.*)$/;

/** A channel sequence number (`776`) is a line of 3-5 digits just before the abbreviated heading. */
function isSequenceLine(lines: readonly string[], i: number): boolean {
  if (!RE_SEQUENCE.test(cleanLine(lines[i]!).trim())) return false;
  for (let k = i + 1; k < lines.length; k++) {
    const next = cleanLine(lines[k]!).trim();
    if (next !== "") return RE_HEADING.test(next);
  }
  return false;
}

function familyOfHeading(tt: string): ReportFamily | undefined {
  if (tt === "SA" || tt === "SP") return "METAR";
  if (tt === "SM" || tt === "SI" || tt === "SN") return "SYNOP";
  return undefined;
}

/** Removes control characters that only frame bulletins (SOH, ETX) at the ends of a line. */
function cleanLine(line: string): string {
  return line.replace(/^[\x01\x03\r]+/, "").replace(/[\r\x03]+$/, "");
}

/** Columns holding the report text and its date in aviationweather.gov CSV exports. */
const RAW_COLUMNS = ["raw_text", "rawOb"];
const DATE_COLUMNS = ["observed_utc", "observation_time", "reportTime"];

/**
 * The header record of an aviationweather CSV: the first line, or within the first ten lines (the
 * cache files `metars.cache.csv` put "No errors", "... results" lines before it); -1 if none.
 */
function csvHeaderRow(rows: readonly CsvRow[]): number {
  for (let i = 0; i < Math.min(rows.length, 10); i++) {
    if (RAW_COLUMNS.some((c) => rows[i]!.fields.includes(c))) return i;
  }
  return -1;
}

/** The reports of an aviationweather CSV (read with fast-csv), each with its line and its row's date. */
export async function splitCsv(content: string, file = "CSV"): Promise<ReportText[]> {
  const rows = await readCsvRows(content, file);
  const headerAt = csvHeaderRow(rows);
  const header = rows[headerAt]?.fields ?? [];
  const rawAt = header.findIndex((h) => RAW_COLUMNS.includes(h));
  const dateAt = header.findIndex((h) => DATE_COLUMNS.includes(h));
  const origin = `CSV ${header[dateAt] ?? ""}`.trim();
  const out: ReportText[] = [];
  for (const { fields, line } of rows.slice(headerAt + 1)) {
    const text = fields[rawAt];
    if (text === undefined || text.trim() === "") continue;
    const report: ReportText = { family: "METAR", text, line };
    const ref = dateAt >= 0 && fields[dateAt] ? referenceFromDateTime(fields[dateAt]!, origin) : undefined;
    if (ref) report.reference = ref;
    out.push(report);
  }
  return out;
}

/** True when one of the first ten lines is an aviationweather CSV header (a raw_text or rawOb column). */
export async function isAviationWeatherCsv(content: string): Promise<boolean> {
  const head = content.slice(0, 4096).split(/\r?\n/).slice(0, 10).join("\n");
  return csvHeaderRow(await readCsvRows(head, "CSV header").catch(() => [])) >= 0;
}

/** Every report of a file: an aviationweather CSV (fast-csv) or bulletin / line text. */
export async function splitReports(content: string, file?: string): Promise<ReportText[]> {
  if (await isAviationWeatherCsv(content)) return splitCsv(content, file);
  return splitText(content);
}

/** Reports of WMO bulletins, one-report-per-line files, OGIMET getsynop lines and NOAA cycle files. */
export function splitText(content: string): ReportText[] {
  const lines = content.split("\n");
  const terminated = content.includes("=");
  const out: ReportText[] = [];
  let family: ReportFamily | undefined;
  let bbb: string | undefined;
  let section0: string | undefined;
  let dateRef: ReferenceDate | undefined;
  let buf = "";
  let bufLine = 0;
  let lastFamily: ReportFamily | undefined;
  const flush = (): void => {
    let text = buf.replace(/\s+/g, " ").trim();
    buf = "";
    if (text === "") return;
    let fam = family;
    const word = text.slice(0, 5);
    if (word === "METAR" || word === "SPECI") fam = "METAR";
    const s0 = RE_SECTION0.exec(text);
    if (s0) {
      fam = "SYNOP";
      section0 = s0[1];
      text = text.slice(s0[0].length).trim();
      if (text === "") return;
    }
    if (fam === "SYNOP") text = `AAXX ${section0 ?? "/////"} ${text}`;
    if (fam === undefined && /^[A-Z][A-Z0-9]{3} \d{6}Z/.test(text)) fam = "METAR";
    // In a file of bare reports, a malformed one takes the family of those around it.
    if (fam === undefined) fam = lastFamily;
    lastFamily = fam;
    const report: ReportText = { family: fam, text, line: bufLine };
    if (bbb !== undefined) report.bulletinBbb = bbb;
    if (dateRef !== undefined) report.reference = dateRef;
    out.push(report);
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = cleanLine(raw);
    const trimmed = line.trim();
    const heading = RE_HEADING.exec(trimmed);
    if (heading || isSequenceLine(lines, i) || trimmed.toUpperCase() === "NNNN" || trimmed.startsWith("ZCZC") || raw.includes("\x01") || raw.includes("\x03")) {
      // A new bulletin (or its end): what was collected is complete, and the context resets.
      flush();
      if (heading) {
        family = familyOfHeading(heading[1]!.slice(0, 2));
        bbb = heading[5];
        section0 = undefined;
      } else if (raw.includes("\x01") || trimmed.startsWith("ZCZC")) {
        family = undefined;
        bbb = undefined;
        section0 = undefined;
      }
      continue;
    }
    const ogimet = RE_OGIMET.exec(trimmed);
    if (ogimet) {
      flush();
      const saved = dateRef;
      const [y, mo, d, h, mi] = [2, 3, 4, 5, 6].map((k) => Number(ogimet[k]));
      dateRef = mo! >= 1 && mo! <= 12 ? { year: y!, month: mo!, instant: Date.UTC(y!, mo! - 1, d!, h!, mi!) / 1000, origin: "OGIMET date fields" } : undefined;
      bufLine = i + 1;
      buf = ogimet[7]!.replace(/=\s*$/, "");
      flush();
      dateRef = saved;
      continue;
    }
    if (RE_NOAA_DATE.test(trimmed)) {
      flush();
      dateRef = referenceFromDateTime(trimmed, "date line");
      continue;
    }
    if (trimmed === "METAR" || trimmed === "SPECI" || trimmed === "MTRNZY" || /^MTR[A-Z0-9]{3}$/.test(trimmed)) {
      // The report-type line of a collective (MTRxxx is the AFOS product line of NWS bulletins).
      flush();
      family = "METAR";
      continue;
    }
    if (trimmed === "") {
      if (!terminated) flush();
      continue;
    }
    const indented = /^\s/.test(line);
    if (!terminated && !indented) flush();
    if (buf === "") bufLine = i + 1;
    if (terminated) {
      let rest = line;
      for (;;) {
        const eq = rest.indexOf("=");
        if (eq < 0) break;
        buf += " " + rest.slice(0, eq);
        flush();
        rest = rest.slice(eq + 1);
        bufLine = i + 1;
      }
      buf += " " + rest;
    } else buf += " " + line;
  }
  flush();
  return out;
}
