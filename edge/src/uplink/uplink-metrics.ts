/** The uplink's Prometheus metrics, on the edge node's own registry (so /metrics shows them beside the gate's). */
import { Counter, Gauge, type Registry } from 'prom-client';

export type LinkState = 'connecting' | 'up' | 'down' | 'refused';
export const LINK_STATES: readonly LinkState[] = ['connecting', 'up', 'down', 'refused'];

export class UplinkMetrics {
  readonly #backlog: Gauge;
  readonly #acknowledged: Gauge;
  readonly #state: Gauge<'state'>;
  readonly #shipped: Counter;
  readonly #failures: Counter<'code'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#backlog = new Gauge({
      name: 'pentagate_edge_uplink_backlog_records',
      help: 'Audit outbox records the cloud has not acknowledged yet.',
      registers,
    });
    this.#acknowledged = new Gauge({
      name: 'pentagate_edge_uplink_acknowledged_records',
      help: "Records of this robot's audit chain the cloud holds (its last acknowledgement).",
      registers,
    });
    this.#state = new Gauge({
      name: 'pentagate_edge_uplink_link_state',
      help: 'Link to the cloud: 1 for the current state (connecting, up, down, refused), 0 for the others.',
      labelNames: ['state'],
      registers,
    });
    this.#shipped = new Counter({
      name: 'pentagate_edge_uplink_records_shipped_total',
      help: 'Records the cloud acknowledged as newly stored.',
      registers,
    });
    this.#failures = new Counter({
      name: 'pentagate_edge_uplink_failures_total',
      help: 'Failed exchanges with the cloud, by error code.',
      labelNames: ['code'],
      registers,
    });
    this.setState('connecting');
  }

  setState(state: LinkState): void {
    for (const s of LINK_STATES) this.#state.set({ state: s }, s === state ? 1 : 0);
  }

  setChain(outboxCount: number, acknowledged: number): void {
    this.#acknowledged.set(acknowledged);
    this.#backlog.set(Math.max(0, outboxCount - acknowledged));
  }

  recordShipped(count: number): void {
    this.#shipped.inc(count);
  }

  recordFailure(code: string): void {
    this.#failures.inc({ code });
  }
}
