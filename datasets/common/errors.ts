/**
 * Typed errors shared by the pipeline and the server.
 *
 * Every message says what was expected and what was got, and where (file, line or byte offset),
 * so that a failed build or a refused artifact can be fixed without reading the code.
 */

/** Where in a source or artifact a fault was found. All members optional: say what is known. */
export interface FaultLocation {
  file?: string;
  line?: number;
  offset?: number;
  field?: string;
}

function describeLocation(where: FaultLocation): string {
  const parts: string[] = [];
  if (where.file !== undefined) parts.push(where.file);
  if (where.line !== undefined) parts.push(`line ${where.line}`);
  if (where.offset !== undefined) parts.push(`offset ${where.offset}`);
  if (where.field !== undefined) parts.push(`field ${where.field}`);
  return parts.join(", ");
}

/**
 * Bad bytes or text in an upstream source or in one of our artifacts:
 * "places.idx, offset 0: expected magic GEODPLCS, got GEODXXXX".
 */
export class DataFormatError extends Error {
  override readonly name = "DataFormatError";
  readonly where: FaultLocation;
  readonly expected: string;
  readonly got: string;

  constructor(where: FaultLocation, expected: string, got: string) {
    const loc = describeLocation(where);
    super(`${loc ? loc + ": " : ""}expected ${expected}, got ${got}`);
    this.where = where;
    this.expected = expected;
    this.got = got;
  }
}

/** A source or artifact that is not there at all. */
export class MissingInputError extends Error {
  override readonly name = "MissingInputError";
  readonly path: string;

  constructor(path: string, what: string) {
    super(`${what} not found: ${path}`);
    this.path = path;
  }
}

/** Invalid configuration (an environment variable or a command-line option). */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly variable: string;

  constructor(variable: string, expected: string, got: string) {
    super(`${variable}: expected ${expected}, got ${JSON.stringify(got)}`);
    this.variable = variable;
  }
}
