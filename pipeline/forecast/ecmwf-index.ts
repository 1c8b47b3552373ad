/**
 * ECMWF open data inventories: beside every `...-oper-fc.grib2` a `...-oper-fc.index` with one
 * JSON object per field, e.g. {"date": "20260310", "time": "0000", "step": "6", "levtype": "sfc",
 * "param": "tp", "_offset": 1234, "_length": 567, ...}. Parsed into the same entries as a wgrib2
 * `.idx` (name = param, level = levtype, or "levelist levtype" for pressure levels), each with
 * its exact byte range, so ranges are fetched the same way as for GFS.
 * ECMWF accumulates some parameters from the start of the forecast (tp and the other
 * accumulated fluxes): their entry is the window 0-step; a "a-b" step is that window.
 */
import { DataFormatError } from "../../datasets/common/errors.ts";
import type { InventoryEntry } from "./inventory.ts";

/** Parameters accumulated from the forecast start in ECMWF open data (step "s" = window 0-s). */
export const ECMWF_ACCUMULATED_FROM_START: ReadonlySet<string> = new Set(["tp", "sf", "ro", "ssrd", "strd", "ssr", "str", "ttr", "tprate"]);

/** The `.index` of a GRIB file: `x.grib2` -> `x.index`. */
export function ecmwfIndexPath(file: string): string {
  return `${file.replace(/\.grib2?$/, "")}.index`;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

export function parseEcmwfIndex(source: string, file: string): InventoryEntry[] {
  const entries: InventoryEntry[] = [];
  for (const [k, raw] of source.split(/\r?\n/).entries()) {
    if (raw.trim() === "") continue;
    const line = k + 1;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new DataFormatError({ file, line }, "a JSON object per line", JSON.stringify(raw.slice(0, 80)));
    }
    const offset = o["_offset"];
    const length = o["_length"];
    if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) throw new DataFormatError({ file, line, field: "_offset" }, "a byte offset", JSON.stringify(offset));
    if (typeof length !== "number" || !Number.isInteger(length) || length <= 0) throw new DataFormatError({ file, line, field: "_length" }, "a positive length", JSON.stringify(length));
    const param = text(o["param"]);
    if (!param) throw new DataFormatError({ file, line, field: "param" }, "a parameter short name", JSON.stringify(o["param"]));
    const date = /^(\d{4})(\d{2})(\d{2})$/.exec(text(o["date"]) ?? "");
    const time = /^(\d{1,2})(\d{2})$/.exec((text(o["time"]) ?? "").padStart(3, "0"));
    if (!date || !time) throw new DataFormatError({ file, line, field: "date" }, "date YYYYMMDD and time HHMM", JSON.stringify(`${String(o["date"])} ${String(o["time"])}`));
    const step = /^(\d+)(?:-(\d+))?$/.exec(text(o["step"]) ?? "");
    if (!step) throw new DataFormatError({ file, line, field: "step" }, "a step like 6 or 0-6", JSON.stringify(o["step"]));
    const end = Number(step[2] ?? step[1]);
    const start = step[2] !== undefined ? Number(step[1]) : ECMWF_ACCUMULATED_FROM_START.has(param) ? 0 : end;
    const levtype = text(o["levtype"]) ?? "";
    const levelist = text(o["levelist"]);
    entries.push({
      id: String(entries.length + 1),
      line,
      offset,
      end: offset + length,
      referenceTime: new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(time[1]), Number(time[2]))),
      name: param,
      level: levelist ? `${levelist} ${levtype}` : levtype,
      startHour: start,
      endHour: end,
      statistic: start === end ? "instant" : ECMWF_ACCUMULATED_FROM_START.has(param) ? "accumulation" : "other",
    });
  }
  return entries.sort((a, b) => a.offset - b.offset);
}
