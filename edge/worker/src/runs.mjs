// RunTracker keeps a Durable Object alive while it holds suspended runs.
//
// Durable Object memory is discarded ~10 s after the object goes idle, and
// with it every snapshot. From compatibility date 2026-10-01 a pending
// setInterval counts as work in progress, so the tracker holds one interval
// while any run is waiting and drops it when the last run completes, fails or
// outlives its snapshot TTL (then the object may be evicted again; a wait for
// an expired run answers invalid_input either way).

/** How often the interval fires; it only has to exist, each tick is cheap. */
export const TICK_MS = 5000;

export class RunTracker {
  /** @type {Map<string, number>} runId -> expiry (ms since epoch) */
  #runs = new Map();
  #timer = null;
  #clock;

  /** clock: {setInterval, clearInterval, now} (injected for tests). */
  constructor(clock) {
    this.#clock = clock;
  }

  /** How many runs are waiting. */
  get size() {
    return this.#runs.size;
  }

  /** The ids of the waiting runs. */
  ids() {
    return [...this.#runs.keys()];
  }

  /** Whether the keep-alive interval is pending. */
  get alive() {
    return this.#timer !== null;
  }

  /**
   * observe records what an exec or wait answered: a waiting result (re)arms
   * its run with the snapshot TTL; anything else ends the run it resumed.
   */
  observe(result, resumedRunId, ttlSeconds) {
    const ttl = Number.isFinite(ttlSeconds) && ttlSeconds > 0 ? ttlSeconds : 900;
    if (result?.status === "waiting" && typeof result.runId === "string") {
      this.#runs.set(result.runId, this.#clock.now() + ttl * 1000);
    } else if (typeof resumedRunId === "string") {
      this.#runs.delete(resumedRunId);
    }
    this.#sweep();
  }

  /**
   * renew moves a waiting run's expiry to the core's new one (expiresAt, ms
   * since the epoch, from restartTTL after a touch); unknown runs stay unknown.
   */
  renew(runId, expiresAt) {
    if (this.#runs.has(runId) && Number.isFinite(expiresAt)) this.#runs.set(runId, expiresAt);
    this.#sweep();
  }

  #sweep() {
    const now = this.#clock.now();
    for (const [id, expiry] of this.#runs) {
      if (expiry <= now) this.#runs.delete(id);
    }
    if (this.#runs.size > 0 && this.#timer === null) {
      this.#timer = this.#clock.setInterval(() => this.#sweep(), TICK_MS);
    } else if (this.#runs.size === 0 && this.#timer !== null) {
      this.#clock.clearInterval(this.#timer);
      this.#timer = null;
    }
  }
}
