/**
 * `npm run docs`: rewrites the generated blocks of the documentation pages: the decisions in
 * docs/decisions*.md (from server/openapi/decisions.json, which the OpenAPI document is built from
 * too), each a list item wrapped at 100 columns where Markdown allows a break
 * (server/openapi/markdown-wrap.ts), and the weather member table in docs/weather.md (from
 * server/weather/members.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { GENERATED_PAGES } from "../server/openapi/generated-pages.ts";

for (const page of GENERATED_PAGES) {
  const file = path.join(PROJECT_ROOT, page.file);
  const before = readFileSync(file, "utf8");
  const after = page.render(before);
  if (after !== before) writeFileSync(file, after);
  process.stdout.write(`${page.file}: ${after !== before ? "updated" : "already current"}\n`);
}
