/**
 * Typed arrays the gate's hot path reuses from call to call instead of allocating: every Float64Array
 * longer than a few elements has its own off-heap backing store, which V8 allocates with malloc and every
 * minor GC must sweep (on trapAndSign, about 15 of them per call made a third of each scavenge's pause).
 * The path sweep and the speed bound run synchronously and never re-enter themselves, so each keeps one
 * set per module; a caller never holds one across calls (results copy what they keep).
 */
export class Float64Work {
  #array = new Float64Array(0);

  /** An array of exactly `length` elements, contents unspecified (the caller writes before reading). */
  take(length: number): Float64Array {
    if (this.#array.length !== length) this.#array = new Float64Array(length);
    return this.#array;
  }

  /** The same, zeroed. */
  zeroed(length: number): Float64Array {
    return this.take(length).fill(0);
  }
}

export class Uint8Work {
  #array = new Uint8Array(0);

  /** An array of exactly `length` elements, zeroed. */
  zeroed(length: number): Uint8Array {
    if (this.#array.length !== length) this.#array = new Uint8Array(length);
    return this.#array.fill(0);
  }
}
