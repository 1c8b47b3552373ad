/**
 * A full garbage collection on demand, for the memory tests: the test workers run without
 * --expose-gc, and garbage a test's own requests left is not the memory a dataset holds.
 */
import v8 from "node:v8";
import vm from "node:vm";

export function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}
