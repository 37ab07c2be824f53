/**
 * How often each telemetry source publishes: a source reports at least 5 times per `maxAgeMs`, and never
 * faster than every 10 ms (the model step). The edge judges freshness by arrival time, so the margin is what
 * absorbs a lost frame or a scheduling stall of the simulator or the edge: with the UR5e profile's 50 ms for
 * joint states, a 10 ms period leaves 40 ms (2.5 times per maxAgeMs, the first choice, left 30 ms, and on a
 * loaded 2-core machine stalls of 30–90 ms made the edge stop motions for stale joint states).
 */
import type { SourceProfile } from '@pentagate/protocol';

export function periodMsFor(source: SourceProfile): number {
  const byKind: Record<SourceProfile['kind'], number> = {
    'joint-state': 20,
    pose: 20,
    proximity: 40,
    battery: 500,
    firmware: 1000,
  };
  return Math.max(10, Math.min(byKind[source.kind], Math.floor(source.maxAgeMs / 5)));
}

/** Tells which sources are due at a step. */
export class TelemetrySchedule {
  readonly #next = new Map<string, number>();
  readonly #periods: Map<string, number>;

  constructor(sources: readonly SourceProfile[]) {
    this.#periods = new Map(sources.map((s) => [s.name, periodMsFor(s)]));
  }

  due(nowMs: number): string[] {
    const out: string[] = [];
    for (const [name, period] of this.#periods) {
      const next = this.#next.get(name) ?? nowMs;
      if (nowMs >= next) {
        out.push(name);
        this.#next.set(name, Math.max(next + period, nowMs));
      }
    }
    return out;
  }
}
