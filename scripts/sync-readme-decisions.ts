/**
 * `npm run docs`: rewrites the list of decisions in README.md (between its markers) from
 * server/openapi/decisions.ts, the list the OpenAPI document is built from.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { withReadmeDecisions } from "../server/openapi/decisions.ts";

const file = path.join(PROJECT_ROOT, "README.md");
const before = readFileSync(file, "utf8");
const after = withReadmeDecisions(before);
if (after !== before) writeFileSync(file, after);
process.stdout.write(after !== before ? "README.md decisions updated\n" : "README.md decisions already current\n");
