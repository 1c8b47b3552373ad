/**
 * `npm run docs`: rewrites the list of decisions and the weather member table in README.md
 * (between their markers) from server/weather/members.ts and
 * server/openapi/decisions.ts, the list the OpenAPI document is built from.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../datasets/common/paths.ts";
import { withReadmeDecisions } from "../server/openapi/decisions.ts";
import { withReadmeMembers } from "../server/weather/members.ts";

const file = path.join(PROJECT_ROOT, "README.md");
const before = readFileSync(file, "utf8");
const after = withReadmeMembers(withReadmeDecisions(before));
if (after !== before) writeFileSync(file, after);
process.stdout.write(after !== before ? "README.md decisions updated\n" : "README.md decisions already current\n");
