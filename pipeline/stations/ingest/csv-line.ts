/** One CSV record on one line (RFC 4180 quoting: "" inside quotes is a quote). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (i <= n) {
    if (line[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) {
          value += line.slice(i);
          i = n;
          break;
        }
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      const comma = line.indexOf(",", i);
      i = comma < 0 ? n + 1 : comma + 1;
    } else {
      const comma = line.indexOf(",", i);
      const end = comma < 0 ? n : comma;
      out.push(line.slice(i, end).replace(/\r$/, ""));
      i = end + 1;
    }
  }
  return out;
}
