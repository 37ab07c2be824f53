/**
 * A small seeded pseudo-random generator (mulberry32) so a scenario's sensor noise and dropouts are the same
 * on every run: a failing scenario can be replayed exactly. Not for anything secret.
 */
import { seededRandom } from '@pentagate/protocol';

export class SeededRandom {
  readonly #uniform: () => number;

  constructor(seed: number) {
    this.#uniform = seededRandom(seed >>> 0 || 0x9e3779b9);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.#uniform();
  }

  /** Normally distributed with mean 0 and standard deviation `sigma` (Box–Muller). */
  gaussian(sigma: number): number {
    if (sigma === 0) return 0;
    const u = Math.max(this.next(), Number.EPSILON);
    const v = this.next();
    return sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
