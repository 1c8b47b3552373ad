/**
 * The query string of a request, checked once at the edge: every parameter at most once, no
 * parameter the endpoint does not accept. Endpoint parsers then read single values from it.
 */
import { errors } from "./api-error.ts";

export class Query {
  private readonly values = new Map<string, string>();

  /** Throws a 400 for a repeated or an unknown parameter. */
  constructor(search: URLSearchParams, allowed: readonly string[]) {
    const counts = new Map<string, number>();
    for (const [name, value] of search) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      this.values.set(name, value);
    }
    for (const [name, count] of counts) {
      if (!allowed.includes(name)) throw errors.unknownParameter(name, allowed);
      if (count > 1) throw errors.repeatedParameter(name, count);
    }
  }

  /** The raw value, or undefined when absent. */
  get(name: string): string | undefined {
    return this.values.get(name);
  }

  /** The raw value; a 400 naming the parameter when absent. */
  require(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) throw errors.missingParameter(name);
    return value;
  }
}
