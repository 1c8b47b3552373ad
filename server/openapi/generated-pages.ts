/** The documentation pages with generated blocks, and what fills each (scripts/generate-docs.ts). */
import { membersMarkdown } from "../weather/members.ts";
import { areaOf, DECISIONS, decisionsMarkdown, type Decision } from "./decisions.ts";
import { withGeneratedBlock } from "./generated-block.ts";

export interface GeneratedPage {
  /** Relative to the project root. */
  file: string;
  render(page: string): string;
}

/** The decisions of these areas (undefined: the API-wide ones), in the data file's order. */
const inAreas = (...areas: (string | undefined)[]): Decision[] => DECISIONS.filter((d) => areas.includes(areaOf(d)));

export const GENERATED_PAGES: readonly GeneratedPage[] = [
  { file: "docs/decisions.md", render: (page) => withGeneratedBlock(page, "decisions", decisionsMarkdown(inAreas(undefined))) },
  { file: "docs/decisions-weather.md", render: (page) => withGeneratedBlock(page, "decisions", decisionsMarkdown(inAreas("Weather", "Weather by id", "Station observations", "Elevation"))) },
  { file: "docs/decisions-places.md", render: (page) => withGeneratedBlock(page, "decisions", decisionsMarkdown(inAreas("Places", "Forward geocoding", "Reverse geocoding", "Administrative"))) },
  { file: "docs/weather.md", render: (page) => withGeneratedBlock(page, "weather-members", membersMarkdown()) },
];
