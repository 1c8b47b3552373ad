/**
 * `--name value` options of a pipeline step, checked once: every option known to the step, each
 * with a value; typed accessors that throw ConfigError naming the option, expected and got.
 */
import { ConfigError } from "../../datasets/common/errors.ts";

export class StepOptions {
  private readonly values = new Map<string, string[]>();

  /** `known`: option names without the leading `--`. */
  constructor(step: string, args: readonly string[], known: readonly string[]) {
    for (let i = 0; i < args.length; i += 2) {
      const name = args[i]!;
      const value = args[i + 1];
      if (!/^--[a-z0-9-]+$/.test(name) || value === undefined) throw new ConfigError(step, "--option value pairs (see --help)", args.join(" "));
      const key = name.slice(2);
      if (!known.includes(key)) throw new ConfigError(name, `one of ${known.map((x) => "--" + x).join(", ")}`, key);
      this.values.set(key, [...(this.values.get(key) ?? []), value]);
    }
  }

  /** The last value given, or undefined. */
  get(name: string): string | undefined {
    return this.values.get(name)?.at(-1);
  }

  /** Every value given, in order (for repeatable options). */
  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }

  /** A path or URL that must be given. */
  required(name: string): string {
    const v = this.get(name);
    if (!v) throw new ConfigError(`--${name}`, "a path or URL", "nothing");
    return v;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.get(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new ConfigError(`--${name}`, `an integer from ${min} to ${max}`, v);
    return Number(v);
  }
}
