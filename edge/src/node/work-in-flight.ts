/**
 * The node's asynchronous work still under way (outbox appends, publications, queued intents), so that
 * `settled` and a graceful shutdown wait for what was already taken in, including work begun meanwhile.
 */
export class WorkInFlight {
  readonly #pending = new Set<Promise<void>>();

  track(work: Promise<void>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Resolves once nothing is under way, work started while waiting included. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
