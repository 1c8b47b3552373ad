/** The documentation pages with generated blocks, and what fills each (scripts/generate-docs.ts). */
import { membersMarkdown } from "../weather/members.ts";
import { decisionsMarkdown } from "./decisions.ts";
import { withGeneratedBlock } from "./generated-block.ts";

export interface GeneratedPage {
  /** Relative to the project root. */
  file: string;
  render(page: string): string;
}

export const GENERATED_PAGES: readonly GeneratedPage[] = [
  { file: "docs/decisions.md", render: (page) => withGeneratedBlock(page, "decisions", decisionsMarkdown()) },
  { file: "docs/weather.md", render: (page) => withGeneratedBlock(page, "weather-members", membersMarkdown()) },
];
