/**
 * Reads the two small GeoNames tables (countries, admin-1 codes) from a path or URL, plain, .gz
 * or .zip, counting malformed rows.
 */
import { openSource, readLines, type SourceOptions } from "../common/source.ts";
import { DataFormatError } from "../../datasets/common/errors.ts";
import { parseAdmin1Line, type Admin1Record } from "./admin1-codes.ts";
import { parseAdmin2Line, type Admin2Record } from "./admin2-codes.ts";
import { parseCountryInfoLine, type CountryRecord } from "./country-info.ts";
import type { MalformedRows } from "./malformed.ts";

async function readRows<T>(
  location: string,
  options: SourceOptions,
  malformed: MalformedRows,
  parse: (line: string) => T | null | string,
  key: (row: T) => string,
): Promise<{ rows: T[]; displayName: string; localPath: string }> {
  const source = await openSource(location, options);
  const rows: T[] = [];
  const seen = new Set<string>();
  for await (const { line, lineNumber } of readLines(source.stream)) {
    const parsed = parse(line);
    if (parsed === null) continue;
    if (typeof parsed === "string") {
      malformed.record(source.displayName, lineNumber, parsed);
      continue;
    }
    const k = key(parsed);
    if (seen.has(k)) {
      malformed.record(source.displayName, lineNumber, `a unique code, got ${k} again`);
      continue;
    }
    seen.add(k);
    rows.push(parsed);
  }
  if (rows.length === 0) throw new DataFormatError({ file: source.displayName }, "at least one data row", "none");
  return { rows, displayName: source.displayName, localPath: source.localPath };
}

export function readCountryInfo(location: string, options: SourceOptions, malformed: MalformedRows) {
  return readRows<CountryRecord>(location, options, malformed, parseCountryInfoLine, (r) => r.iso2);
}

export function readAdmin1Codes(location: string, options: SourceOptions, malformed: MalformedRows) {
  return readRows<Admin1Record>(location, options, malformed, parseAdmin1Line, (r) => r.code);
}

export function readAdmin2Codes(location: string, options: SourceOptions, malformed: MalformedRows) {
  return readRows<Admin2Record>(location, options, malformed, parseAdmin2Line, (r) => `${r.admin1}\t${r.name}`);
}
