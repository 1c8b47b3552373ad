// Prints "N passed, N failed" from vitest's JSON report and exits non-zero when anything failed,
// when the type check failed before vitest ran (no report), or when no test ran. Several runs
// (.ci/run: the newest Node line, then the oldest) are summed: `report status [report status ...]`.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let anyFailedStatus = false;
for (let i = 0; i < Math.max(args.length, 1); i += 2) {
  const file = args[i];
  const npmStatus = Number(args[i + 1] ?? "1");
  if (npmStatus !== 0) anyFailedStatus = true;
  let report;
  try {
    report = JSON.parse(readFileSync(file ?? "", "utf8"));
  } catch {
    console.log(`no vitest report (${file}): the type check or vitest itself failed (exit ${npmStatus})`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  // Suites that failed to load count as failures too: their tests never ran.
  const failedSuites = (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0).length;
  failed += (report.numFailedTests ?? 0) + failedSuites;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(skipped > 0 ? `${passed} passed, ${failed} failed, ${skipped} skipped` : `${passed} passed, ${failed} failed`);
process.exit(failed > 0 || anyFailedStatus || passed === 0 ? 1 : 0);
