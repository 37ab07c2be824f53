/**
 * A small seeded pseudo-random generator (mulberry32) so a scenario's sensor noise and dropouts are the same
 * on every run: a failing scenario can be replayed exactly. Not for anything secret.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Normally distributed with mean 0 and standard deviation `sigma` (Box–Muller). */
  gaussian(sigma: number): number {
    if (sigma === 0) return 0;
    const u = Math.max(this.next(), Number.EPSILON);
    const v = this.next();
    return sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
