/**
 * One read of something the cloud holds, shared by whoever asks for it at about the same time, and never older
 * than the asking: `fresh()` settles with a read that began after it was called. A read already under way may
 * have been answered before the change the caller needs to see (an operator key retired a moment ago), so a
 * caller that arrives while one runs gets the next, started when that one ends. At most one read runs and one
 * waits, however many ask: a flood of callers costs one request at a time, and answers are applied in the
 * order they were asked for (an older answer never lands after a newer one).
 */
export class FreshRead<T> {
  readonly #read: () => Promise<T>;
  /** The read under way, if any. */
  #running: Promise<T> | undefined;
  /** The read that starts when the running one ends (or on the next microtask), shared by its callers. */
  #next: Promise<T> | undefined;

  constructor(read: () => Promise<T>) {
    this.#read = read;
  }

  fresh(): Promise<T> {
    if (this.#next) return this.#next;
    const ended = (this.#running ?? Promise.resolve()).then(
      () => {},
      () => {},
    );
    // started a microtask later at the earliest, so callers of the same synchronous run share it
    const next = ended.then(() => {
      this.#next = undefined;
      const run = this.#read();
      this.#running = run;
      const done = () => {
        if (this.#running === run) this.#running = undefined;
      };
      run.then(done, done);
      return run;
    });
    this.#next = next;
    return next;
  }
}
