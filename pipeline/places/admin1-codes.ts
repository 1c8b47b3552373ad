/**
 * GeoNames `admin1CodesASCII.txt`: tab-separated `CC.code`, name, ASCII name, geonameid; no header.
 */

export interface Admin1Record {
  /** "CC.code", e.g. "DE.16". */
  code: string;
  name: string;
  asciiName: string;
  geonameId: number;
}

export function parseAdmin1Line(line: string): Admin1Record | null | string {
  if (line.trim() === "") return null;
  const f = line.split("\t");
  if (f.length !== 4) return `4 tab-separated columns, got ${f.length}`;
  const [code, name, asciiName, id] = f as [string, string, string, string];
  if (!/^[A-Z]{2}\.[^\s.]+$/.test(code)) return `a code of the form CC.xx in column 1, got ${JSON.stringify(code)}`;
  if (!name) return "a name in column 2, got nothing";
  if (!/^[1-9]\d*$/.test(id)) return `a GeoNames id in column 4, got ${JSON.stringify(id)}`;
  return { code, name, asciiName, geonameId: Number(id) };
}
