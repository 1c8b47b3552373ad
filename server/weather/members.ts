/**
 * The docs table of the weather time slot's members, made from the slot's one description
 * (slot-shape.ts): unit, source variable(s), the window each covers and the formula. docs/weather.md's
 * table and the OpenAPI description of the weather endpoints are generated from it (`npm run docs`;
 * a test checks the docs copy).
 */
import { docRows, type DocRow } from "./answer-shape.ts";
import { SLOT_SHAPE } from "./slot-shape.ts";

export type MemberDefinition = DocRow;

export const SLOT_MEMBERS: readonly MemberDefinition[] = docRows(SLOT_SHAPE);

/** The members as a Markdown table. */
export function membersMarkdown(members: readonly MemberDefinition[] = SLOT_MEMBERS): string {
  const esc = (s: string): string => s.replaceAll("|", "\\|");
  return [
    "| Member | Unit | Source | Window | Formula |",
    "|---|---|---|---|---|",
    ...members.map((m) => `| \`${m.member}\` | ${esc(m.unit)} | ${esc(m.source)} | ${esc(m.window)} | ${esc(m.formula)} |`),
  ].join("\n");
}
