/**
 * The records of a CSV text, read with fast-csv (RFC 4180 quoting), each with the 1-based line of
 * the file where it starts, so that errors name the file and line. A blank line is a record of
 * one empty field (kept, so line numbers stay exact); a quoted field spanning lines moves the line
 * count on by its line breaks. A quoting error is a DataFormatError naming the line.
 */
import { parseString } from "fast-csv";
import { DataFormatError } from "../../../datasets/common/errors.ts";

export interface CsvRow {
  fields: string[];
  /** 1-based line of the file where the record starts. */
  line: number;
}

function lineBreaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) {
    for (let i = f.indexOf("\n"); i >= 0; i = f.indexOf("\n", i + 1)) n++;
  }
  return n;
}

/** Every record of `content` (read as text by the caller: latin1 keeps one byte per character). */
export async function readCsvRows(content: string, file: string): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  let line = 1;
  await new Promise<void>((resolve, reject) => {
    parseString<string[], string[]>(content, { headers: false, ignoreEmpty: false, trim: false })
      .on("data", (fields: string[]) => {
        rows.push({ fields, line });
        line += 1 + lineBreaks(fields);
      })
      .on("error", (err: Error) => reject(new DataFormatError({ file, line }, "a CSV record (RFC 4180 quoting)", JSON.stringify(err.message))))
      .on("end", () => resolve());
  });
  return rows;
}
