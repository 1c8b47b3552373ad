/**
 * Picks up newly published releases without a restart. On `reloadAll()` (SIGHUP) and when a
 * dataset's pointer names another release (`current.txt`: its folder watched, so that a pointer
 * renamed into place is seen at once, and polled every GEODATA_RELEASE_POLL_MS, one small read
 * per dataset, for file systems that report no changes), the new release is opened beside the
 * old with the same checks as at startup (its files against release.json, then the loader's),
 * then swapped in (DatasetRegistry.swap). A release whose files are not all there yet is pending: the old data
 * keeps serving, /health shows why, and the next poll tries again. A release that fails its
 * checks is refused: the old data keeps serving, /health shows the reason, and it is not tried
 * again until the pointer moves or SIGHUP. The old value is closed once the requests that may
 * hold it are done (after `closeGraceMs`).
 *
 * It also keeps what serves sound: a fault the registry is told of (DatasetRegistry.reportFault)
 * is logged and its file checked again (fault-check.ts), and the scrub (scrub.ts) re-hashes
 * every serving file over GEODATA_SCRUB_PERIOD_HOURS.
 */
import { watch, type FSWatcher } from "node:fs";
import { DATASET_NAMES, type DatasetName } from "../../datasets/catalog.ts";
import type { Config } from "../../datasets/common/config.ts";
import type { Logger } from "../../datasets/common/log.ts";
import { CURRENT_LINK, POINTER_FILE, releasesRoot } from "../../datasets/releases/layout.ts";
import { locateDataset } from "../../datasets/releases/locate.ts";
import { PendingReleaseError } from "../../datasets/releases/verify.ts";
import { checkFault } from "./fault-check.ts";
import { failureOf, openDataset, saveChecked, withoutDataDir } from "./open-dataset.ts";
import type { LoaderTable } from "./loader.ts";
import type { DatasetRegistry } from "./registry.ts";
import { Scrubber } from "./scrub.ts";

export interface ReloadOutcome {
  dataset: DatasetName;
  result: "swapped" | "refused" | "pending";
  release: string | undefined;
  reason?: string;
}

export type ReloaderOptions = {
  config: Config;
  logger: Logger;
  registry: DatasetRegistry;
  loaders: LoaderTable;
  /** How long an old value stays open after a swap (default the request time limit). */
  closeGraceMs?: number;
};

export class Reloader {
  private timer: NodeJS.Timeout | undefined;
  private readonly watchers: FSWatcher[] = [];
  /** One reload at a time: a signal during a reload waits for it, then runs again. */
  private running: Promise<unknown> = Promise.resolve();
  /**
   * The pass waiting for the one running, if any: further signals and polls join it (it reads
   * every pointer when it starts, so it sees what they would), instead of queueing one pass each.
   */
  private waiting: { force: boolean; done: Promise<ReloadOutcome[]> } | undefined;
  private readonly pendingCloses = new Map<NodeJS.Timeout, () => Promise<void> | void>();
  private scrubber: Scrubber | undefined;
  /** The last pending release and reason logged per dataset (one log line per change, not per poll). */
  private readonly pendingLogged = new Map<DatasetName, string>();

  constructor(private readonly options: ReloaderOptions) {
    options.registry.onFault = (dataset, file, error) => {
      void this.serialized(() => checkFault({ ...this.options, swapped: (name, close) => close && this.closeLater(name, close) }, dataset, file, error)).catch((err: unknown) => options.logger.error("checking a fault failed", { dataset, err }));
    };
  }

  /** Runs `task` after the reload or check under way (one change of what serves at a time). */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const done = this.running.then(task);
    this.running = done.catch(() => undefined);
    return done;
  }

  /** Starts the background scrub: every serving file re-hashed once per `periodHours` (0 = never). */
  startScrub(periodHours: number): void {
    if (periodHours <= 0) return;
    this.scrubber = new Scrubber({ registry: this.options.registry, periodMs: periodHours * 3_600_000, onDamage: (dataset, file, error) => this.options.registry.reportFault(dataset, file, error) });
    this.scrubber.start();
  }

  /**
   * Re-reads every dataset whose pointer moved; `force` (SIGHUP) re-reads every dataset, which
   * also picks up an artifact rebuilt in place by `npm run pipeline -- <step>`.
   */
  reloadAll(force = false): Promise<ReloadOutcome[]> {
    if (this.waiting) {
      this.waiting.force ||= force;
      return this.waiting.done;
    }
    const next: { force: boolean; done: Promise<ReloadOutcome[]> } = { force, done: Promise.resolve([]) };
    next.done = this.running.then(() => {
      this.waiting = undefined;
      return this.pass(next.force);
    });
    this.waiting = next;
    this.running = next.done.catch(() => undefined);
    return next.done;
  }

  /**
   * Starts noticing moved pointers (0 = never; SIGHUP still reloads): each dataset's releases
   * folder is watched (inotify on Linux, through fs.watch), so that a pointer renamed into place
   * starts a pass at once, and the pointers are polled every `intervalMs`, for file systems that
   * report no changes (network mounts) and for a dataset whose releases folder appears later.
   */
  startPolling(intervalMs: number): void {
    if (intervalMs <= 0) return;
    const pass = (why: string) => void this.reloadAll(false).catch((err: unknown) => this.options.logger.error(`release ${why} failed`, { err }));
    this.timer = setInterval(() => pass("poll"), intervalMs);
    this.timer.unref();
    for (const name of DATASET_NAMES) {
      let watcher: FSWatcher;
      try {
        watcher = watch(releasesRoot(this.options.config.dataDir, name), { persistent: false }, (_event, file) => {
          if (file === POINTER_FILE || file === CURRENT_LINK) pass("watch");
        });
      } catch {
        continue; // No releases folder (yet): the poll looks.
      }
      watcher.on("error", (err) => {
        this.options.logger.warn("watching a dataset's releases failed; polling only", { dataset: name, reason: withoutDataDir(err.message, this.options.config.dataDir) });
        watcher.close();
      });
      this.watchers.push(watcher);
    }
  }

  /** Stops polling and runs the closes still waiting (at shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const w of this.watchers.splice(0)) w.close();
    await this.scrubber?.stop();
    await this.running;
    const closes = [...this.pendingCloses];
    this.pendingCloses.clear();
    for (const [t, close] of closes) {
      clearTimeout(t);
      await close();
    }
  }

  private async pass(force: boolean): Promise<ReloadOutcome[]> {
    const outcomes: ReloadOutcome[] = [];
    for (const name of DATASET_NAMES) {
      let location;
      try {
        location = await locateDataset(this.options.config.dataDir, name);
      } catch (err) {
        // A pointer that names no release (being written by hand?): as if it had not moved.
        this.options.logger.warn("release pointer unreadable", { dataset: name, reason: withoutDataDir((err as Error).message, this.options.config.dataDir) });
        continue;
      }
      const serving = this.options.registry.releaseOf(name);
      const moved = location.release !== serving;
      if (!force && (!moved || (location.release !== undefined && this.options.registry.refusedRelease(name) === location.release))) continue;
      outcomes.push(await this.reloadOne(name, location.release));
    }
    return outcomes;
  }

  private async reloadOne(name: DatasetName, offered: string | undefined): Promise<ReloadOutcome> {
    const { registry, logger, config } = this.options;
    const label = offered ?? "(data directory)";
    try {
      const opened = await openDataset(name, config, logger, this.options.loaders, { checked: registry.checked });
      await saveChecked(registry.checked, logger);
      const old = registry.swap(name, opened.loaded, opened.loadMs, opened.release, opened.served);
      this.pendingLogged.delete(name);
      logger.info("dataset reloaded", { dataset: name, release: opened.release, loadMs: opened.loadMs, check: opened.check, counts: opened.loaded.metadata.counts });
      if (old) this.closeLater(name, old);
      return { dataset: name, result: "swapped", release: opened.release };
    } catch (err) {
      const failure = failureOf(name, err, config.dataDir);
      const reason = failure.message;
      // Nothing was serving (missing at startup): the state says why, as at startup.
      if (!registry.isReady(name)) registry.setFailed(name, failure.status, reason, offered);
      if (err instanceof PendingReleaseError) {
        const why = withoutDataDir(err.reason, config.dataDir);
        registry.markPending(name, err.release, why);
        if (this.pendingLogged.get(name) !== `${err.release} ${why}`) logger.info("release pending", { dataset: name, release: err.release, reason: why });
        this.pendingLogged.set(name, `${err.release} ${why}`);
        return { dataset: name, result: "pending", release: offered, reason };
      }
      registry.refuse(name, label, reason);
      logger.error("release refused", { dataset: name, release: label, reason });
      return { dataset: name, result: "refused", release: offered, reason };
    }
  }

  private closeLater(name: DatasetName, close: () => Promise<void> | void): void {
    const t = setTimeout(() => {
      this.pendingCloses.delete(t);
      Promise.resolve()
        .then(close)
        .then(
          () => this.options.logger.info("old release closed", { dataset: name }),
          (err: unknown) => this.options.logger.error("closing the old release failed", { dataset: name, err }),
        );
    }, this.options.closeGraceMs ?? this.options.config.requestTimeoutMs);
    this.pendingCloses.set(t, close);
  }
}
