/**
 * The one parser of pipeline step options: `--name value` options, `--flag` options without a
 * value, and (where the step takes them) plain arguments such as input files; checked once, each
 * option known to the step; typed accessors that throw ConfigError naming the option, expected
 * and got. A range shared with an environment variable comes from datasets/common/config.ts
 * (LIMITS), so that the option and the variable cannot drift apart.
 */
import { ConfigError } from "../../datasets/common/errors.ts";

export interface OptionSpec {
  /** Options taking a value (`--name value`), without the leading `--`; repeatable. */
  values: readonly string[];
  /** Options without a value (`--force`). */
  flags?: readonly string[];
  /** Whether plain arguments (not starting with `--`) are accepted; else they are an error. */
  positional?: boolean;
}

export class StepOptions {
  private readonly values = new Map<string, string[]>();
  private readonly flags = new Set<string>();
  /** Plain arguments, in order (inputs). */
  readonly positional: string[] = [];

  /** `spec`: option names without the leading `--` (values only), or the full spec. */
  constructor(step: string, args: readonly string[], spec: readonly string[] | OptionSpec) {
    const { values, flags = [], positional = false } = Array.isArray(spec) ? { values: spec as readonly string[] } : (spec as OptionSpec);
    const known = [...values, ...flags].map((x) => "--" + x).join(", ");
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (!arg.startsWith("--")) {
        if (!positional) throw new ConfigError(step, "--option value pairs (see --help)", args.join(" "));
        this.positional.push(arg);
        continue;
      }
      const key = arg.slice(2);
      if (!/^[a-z0-9-]+$/.test(key) || !(values.includes(key) || flags.includes(key))) throw new ConfigError(arg, `one of ${known}`, key);
      if (flags.includes(key)) {
        this.flags.add(key);
        continue;
      }
      const value = args[i + 1];
      if (value === undefined || value.startsWith("--")) throw new ConfigError(arg, "a value", value ?? "nothing");
      this.values.set(key, [...(this.values.get(key) ?? []), value]);
      i++;
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

  /** Whether the flag was given. */
  flag(name: string): boolean {
    return this.flags.has(name);
  }

  /** A path or URL that must be given. */
  required(name: string, what = "a path or URL"): string {
    const v = this.get(name);
    if (!v) throw new ConfigError(`--${name}`, what, "nothing");
    return v;
  }

  /** A comma list of `kind` among `allowed` (`--only places,admin`), or undefined when the option is not given. */
  names<T extends string>(name: string, allowed: readonly T[], kind = "names"): T[] | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    const list = v.split(",").map((s) => s.trim()).filter(Boolean);
    for (const n of list) if (!allowed.includes(n as T)) throw new ConfigError(`--${name}`, `${kind} among ${allowed.join(", ")}`, n);
    return list as T[];
  }

  /** A whole number in [min, max], or `fallback` when the option is not given. */
  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.get(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new ConfigError(`--${name}`, `an integer from ${min} to ${max}`, v);
    return Number(v);
  }
}
