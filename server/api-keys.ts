/**
 * The API keys in force, replaceable at run time: GEODATA_API_KEYS plus GEODATA_API_KEYS_FILE,
 * whose file is read again on SIGHUP. A file that cannot be read or holds a bad key is refused
 * and the keys in force stay (a typo must not lock every client out).
 */
import { readApiKeysFile, type Config } from "../datasets/common/config.ts";
import type { Logger } from "../datasets/common/log.ts";
import { KeyChecker } from "./http/auth.ts";

export class ReloadableKeys extends KeyChecker {
  private current: KeyChecker;

  /**
   * `fixed`: the keys that do not come from the file and so stay across reloads (GEODATA_API_KEYS,
   * or the key generated for this run when none is configured); `fromFile`: the file's keys at start.
   */
  constructor(
    private readonly fixed: readonly string[],
    fromFile: readonly string[] = [],
  ) {
    super([]);
    this.current = new KeyChecker([...fixed, ...fromFile]);
  }

  override isValid(presented: string | undefined): boolean {
    return this.current.isValid(presented);
  }

  /** Re-reads the keys file (no-op without one). Returns the number of keys now, or undefined if refused. */
  reload(config: Config, logger: Logger): number | undefined {
    if (!config.apiKeysFile) return undefined;
    try {
      const keys = [...this.fixed, ...readApiKeysFile(config.apiKeysFile)];
      this.current = new KeyChecker(keys);
      logger.info("api keys reloaded", { keys: keys.length });
      return keys.length;
    } catch (err) {
      logger.error("api keys file refused; the keys in force stay", { reason: (err as Error).message });
      return undefined;
    }
  }
}
