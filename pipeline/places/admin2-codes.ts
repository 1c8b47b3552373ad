/**
 * GeoNames `admin2Codes.txt`: tab-separated `CC.admin1.admin2`, name, ASCII name, geonameid; no
 * header ("US.IL.167\tSangamon County\tSangamon County\t4250857"). Counties and districts name the
 * admin-1 area holding them as qualifiers ("Springfield, Sangamon County"; "Preston, Lancashire").
 */

export interface Admin2Record {
  /** "CC.admin1", the admin-1 code holding the area. */
  admin1: string;
  name: string;
  asciiName: string;
}

export function parseAdmin2Line(line: string): Admin2Record | null | string {
  if (line.trim() === "") return null;
  const f = line.split("\t");
  if (f.length !== 4) return `4 tab-separated columns, got ${f.length}`;
  const [code, name, asciiName] = f as [string, string, string, string];
  const m = /^([A-Z]{2}\.[^\s.]+)\.[^\s.]+$/.exec(code);
  if (!m) return `a code of the form CC.admin1.admin2 in column 1, got ${JSON.stringify(code)}`;
  if (!name) return "a name in column 2, got nothing";
  return { admin1: m[1]!, name, asciiName };
}
