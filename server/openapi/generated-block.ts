/**
 * A block of a Markdown page made from code or data (`npm run docs`): the text between a start
 * and an end marker is replaced whole, and a test checks that every page is current.
 */
export function withGeneratedBlock(page: string, name: string, body: string): string {
  const start = page.indexOf(`<!-- ${name}:start`);
  const startEnd = page.indexOf("-->", start) + 3;
  const end = page.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < startEnd) throw new Error(`expected the markers <!-- ${name}:start ... --> and <!-- ${name}:end --> in the page, got none`);
  return page.slice(0, startEnd) + "\n" + body + "\n" + page.slice(end);
}
