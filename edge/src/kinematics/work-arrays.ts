/**
 * Typed arrays the gate's hot path reuses from call to call instead of allocating: every Float64Array
 * longer than a few elements has its own off-heap backing store, which V8 allocates with malloc and every
 * minor GC must sweep (on trapAndSign, about 15 of them per call made a third of each scavenge's pause).
 * The path sweep and the speed bound run synchronously and never re-enter themselves, so each keeps one
 * set per module; a caller never holds one across calls (results copy what they keep).
 */
type WorkArrayType = Float64Array | Uint8Array;

export class WorkArray<T extends WorkArrayType> {
  readonly #make: (length: number) => T;
  #array: T;

  /** `make`: a new array of a length, e.g. `(n) => new Float64Array(n)`. */
  constructor(make: (length: number) => T) {
    this.#make = make;
    this.#array = make(0);
  }

  /** An array of exactly `length` elements, contents unspecified (the caller writes before reading). */
  take(length: number): T {
    if (this.#array.length !== length) this.#array = this.#make(length);
    return this.#array;
  }

  /** The same, zeroed. */
  zeroed(length: number): T {
    const array = this.take(length);
    array.fill(0);
    return array;
  }
}

/** A reused Float64Array. */
export const float64Work = (): WorkArray<Float64Array> => new WorkArray((n) => new Float64Array(n));
