/**
 * The decisions taken where the spec says "not shown": one data file, decisions.json (each
 * decision's text in lines of at most 120 characters, joined with spaces), from which the OpenAPI
 * document's description and the pages docs/decisions.md (the API-wide ones),
 * docs/decisions-weather.md and docs/decisions-places.md (topics "Area: ...") (`npm run docs`,
 * wrapped there to readable lines) are made.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../datasets/common/paths.ts";
import { wrapListItem } from "./markdown-wrap.ts";

export interface Decision {
  topic: string;
  decision: string;
}

/** The data file: at the same place in the sources and beside the compiled code's root. */
export const DECISIONS_FILE = path.join(PROJECT_ROOT, "server", "openapi", "decisions.json");

export const DECISIONS: readonly Decision[] = (JSON.parse(readFileSync(DECISIONS_FILE, "utf8")) as { topic: string; text: string[] }[]).map((d) => ({
  topic: d.topic,
  decision: d.text.join(" "),
}));

/** The area of a decision about one domain (its topic is "Area: subject"); undefined for the API-wide ones. */
export const areaOf = (d: Decision): string | undefined => (d.topic.includes(":") ? d.topic.slice(0, d.topic.indexOf(":")) : undefined);

/** Columns of the decision pages' lines (a word that cannot start a line may run past them). */
export const DECISIONS_PAGE_WIDTH = 100;

/** The decisions as a Markdown list, each item wrapped at DECISIONS_PAGE_WIDTH columns. */
export function decisionsMarkdown(decisions: readonly Decision[] = DECISIONS): string {
  return decisions.map((d) => wrapListItem("- ", `**${d.topic}**: ${d.decision}`, DECISIONS_PAGE_WIDTH)).join("\n");
}
