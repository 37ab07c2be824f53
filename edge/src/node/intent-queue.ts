/**
 * Intents wait their turn behind telemetry. Judging one sweeps its whole path (up to MAX_PATH_SAMPLES, ≈5 ms),
 * and a burst the rate limit still lets through (100 intents of 57 KB, each near that bound) held the event
 * loop for half a second, with the proximity frame that must stop the robot waiting behind it (outside review:
 * proximity → STOP 200–556 ms after such a burst, 3–37 ms idle). So the node only queues an intent when it
 * arrives and judges one per turn of the event loop (setImmediate), after the I/O that arrived meanwhile:
 * a frame waits for one intent's work at most, never a burst's. The rate limit bounds what can wait.
 */
export class IntentQueue<T> {
  readonly #judge: (item: T) => void;
  readonly #waiting: T[] = [];
  #draining: Promise<void> | undefined;

  /** `judge` runs once per item, in arrival order, each in its own turn of the event loop; it must not throw. */
  constructor(judge: (item: T) => void) {
    this.#judge = judge;
  }

  get length(): number {
    return this.#waiting.length;
  }

  /** Queues `item`; the promise settles once the queue has run empty (for the node's `settled`). */
  push(item: T): Promise<void> {
    this.#waiting.push(item);
    this.#draining ??= this.#drain();
    return this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const next = this.#waiting.shift();
        if (next !== undefined) this.#judge(next);
      }
    } finally {
      this.#draining = undefined;
    }
  }
}
