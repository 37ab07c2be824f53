/**
 * mulberry32, a small seeded pseudo-random generator: uniform in [0, 1), the same sequence for the same seed on
 * every machine. One copy for the project's reproducible sampling — the simulator's sensor noise, the
 * injection corpus generator and trainer, the edge's profile cross-check — never for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
