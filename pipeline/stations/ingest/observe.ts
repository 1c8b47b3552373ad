/**
 * One report text to a stored observation: decode, date, map to the record. Reports that cannot
 * become an observation (NIL, no station, no time, no year/month) are counted by reason, and
 * undated ones are returned as such so the step can keep them apart rather than guess a date.
 */
import type { StoredObservation } from "../../../datasets/stations/record.ts";
import { decodeMetar } from "../metar/decode.ts";
import { metarToRecord } from "../metar/to-record.ts";
import { decodeSynop } from "../synop/decode.ts";
import { synopToRecord } from "../synop/to-record.ts";
import { resolveTimestamp, type ReferenceDate } from "./dating.ts";
import type { ReportText } from "./split.ts";

export type Outcome =
  | { kind: "observation"; observation: StoredObservation; unreadGroups: number }
  | { kind: "undated"; family: "METAR" | "SYNOP"; station: string; day: number; hour: number; minute: number; raw: string; source: string }
  | { kind: "rejected"; reason: "nil" | "no station" | "no time" | "unknown report type" | "day not in month" };

const CORRECTION_RANK = /^CC([A-Z])$/;

/** Rank of a correction: 0 original, 1 COR/CCA (and AAx), 2 CCB, ... (a higher rank replaces a lower). */
export function correctionRank(correction: string): number {
  if (correction === "") return 0;
  const m = CORRECTION_RANK.exec(correction);
  if (m) return m[1]!.charCodeAt(0) - 0x40;
  return 1;
}

/** BBB of the heading: CCx (corrected) and AAx (amended) replace earlier reports; RRx (delayed) does not. */
function bulletinCorrection(bbb: string | undefined): string {
  return bbb !== undefined && (bbb.startsWith("CC") || bbb.startsWith("AA")) ? bbb : "";
}

export function observe(report: ReportText, fileRef: ReferenceDate | undefined, source: string): Outcome {
  const ref = report.reference ?? fileRef;
  const where = `${source}:${report.line}`;
  if (report.family === "SYNOP") {
    const d = decodeSynop(report.text);
    if (d.nil) return { kind: "rejected", reason: "nil" };
    if (d.station === undefined) return { kind: "rejected", reason: "no station" };
    if (d.day === undefined || d.hour === undefined) return { kind: "rejected", reason: "no time" };
    if (!ref) return { kind: "undated", family: "SYNOP", station: d.station, day: d.day, hour: d.hour, minute: 0, raw: report.text, source: where };
    const ts = resolveTimestamp(ref, d.day, d.hour, 0);
    if (ts === undefined) return { kind: "rejected", reason: "day not in month" };
    return {
      kind: "observation",
      unreadGroups: d.unread.length,
      observation: {
        kind: "SYNOP",
        station: d.station,
        record: synopToRecord(d, ts),
        reportType: "AAXX",
        correction: bulletinCorrection(report.bulletinBbb),
        raw: report.text,
        source: where,
        unread: JSON.stringify(d.unread),
      },
    };
  }
  if (report.family === "METAR") {
    const d = decodeMetar(report.text);
    if (d.nil) return { kind: "rejected", reason: "nil" };
    if (d.station === undefined) return { kind: "rejected", reason: "no station" };
    if (d.day === undefined || d.hour === undefined || d.minute === undefined) return { kind: "rejected", reason: "no time" };
    if (!ref) return { kind: "undated", family: "METAR", station: d.station, day: d.day, hour: d.hour, minute: d.minute, raw: report.text, source: where };
    const ts = resolveTimestamp(ref, d.day, d.hour, d.minute);
    if (ts === undefined) return { kind: "rejected", reason: "day not in month" };
    const correction = d.correction ? "COR" : bulletinCorrection(report.bulletinBbb);
    return {
      kind: "observation",
      unreadGroups: d.unread.length,
      observation: {
        kind: "METAR",
        station: d.station,
        record: metarToRecord(d, ts),
        reportType: d.kind,
        correction,
        raw: report.text,
        source: where,
        unread: JSON.stringify(d.unread),
      },
    };
  }
  return { kind: "rejected", reason: "unknown report type" };
}
