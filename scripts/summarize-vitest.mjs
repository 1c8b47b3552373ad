// Prints "N passed, N failed" from vitest's JSON report and exits non-zero when anything failed,
// when the type check failed before vitest ran (no report), or when no test ran.
import { readFileSync } from "node:fs";

const [file, statusArg] = process.argv.slice(2);
const npmStatus = Number(statusArg ?? "1");
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch {
  console.log(`no vitest report (${file}): the type check or vitest itself failed (exit ${npmStatus})`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// Suites that failed to load count as failures too: their tests never ran.
const failedSuites = (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0).length;
const failed = (report.numFailedTests ?? 0) + failedSuites;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(skipped > 0 ? `${passed} passed, ${failed} failed, ${skipped} skipped` : `${passed} passed, ${failed} failed`);
process.exit(failed > 0 || npmStatus !== 0 || passed === 0 ? 1 : 0);
