/**
 * Prometheus metrics of one edge node, on a registry of its own (not prom-client's global one) so two
 * nodes in one process, or two tests, never share counters.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { VerdictEvent } from '@pentagate/protocol';

export type InputKind = 'intent' | 'telemetry' | 'consent' | 'unknown-topic';
export type CommandKind = 'motion' | 'stop';

/** Distinct rejection reasons kept as labels; beyond this they count as `other` (bounded cardinality). */
const MAX_REASON_LABELS = 64;

export class EdgeMetrics {
  readonly registry = new Registry();
  readonly #verdicts: Counter<'outcome'>;
  readonly #gateResults: Counter<'vertex' | 'outcome'>;
  readonly #trapAndSignSeconds: Histogram;
  readonly #rejectedInputs: Counter<'input' | 'reason'>;
  readonly #commandsPublished: Counter<'kind'>;
  readonly #commandsExpired: Counter<'kind'>;
  readonly #outboxRecords: Gauge;
  readonly #reasons = new Set<string>();

  constructor() {
    const registers = [this.registry];
    this.#verdicts = new Counter({
      name: 'pentagate_edge_verdicts_total',
      help: 'Verdict events by outcome (signed, vetoed, awaiting-consent, stopped, rejected-input, consent-expired).',
      labelNames: ['outcome'],
      registers,
    });
    this.#gateResults = new Counter({
      name: 'pentagate_edge_gate_verdicts_total',
      help: 'Gate results per pentagon vertex and outcome (passed or failed).',
      labelNames: ['vertex', 'outcome'],
      registers,
    });
    this.#trapAndSignSeconds = new Histogram({
      name: 'pentagate_edge_trap_and_sign_seconds',
      help: 'Time spent in trapAndSign per intent (all five gates and the MAC).',
      // 10 µs … 50 ms: the target is p99 <= 100 µs, so the low buckets carry the information.
      buckets: [1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 5e-2],
      registers,
    });
    this.#rejectedInputs = new Counter({
      name: 'pentagate_edge_rejected_inputs_total',
      help: 'Inputs refused before or by the gates (malformed JSON, schema, stale, out-of-range), by input and reason.',
      labelNames: ['input', 'reason'],
      registers,
    });
    this.#commandsPublished = new Counter({
      name: 'pentagate_edge_commands_published_total',
      help: 'Signed motor commands published, by kind (motion or stop).',
      labelNames: ['kind'],
      registers,
    });
    this.#commandsExpired = new Counter({
      name: 'pentagate_edge_commands_expired_total',
      help: 'Signed commands not published because their validUntil had passed when the transport got them.',
      labelNames: ['kind'],
      registers,
    });
    this.#outboxRecords = new Gauge({
      name: 'pentagate_edge_outbox_records',
      help: 'Records in the audit outbox not yet acknowledged by the forwarding sink.',
      registers,
    });
  }

  recordVerdict(verdict: VerdictEvent): void {
    this.#verdicts.inc({ outcome: verdict.outcome });
    for (const gate of verdict.gates) {
      this.#gateResults.inc({ vertex: gate.vertex, outcome: gate.passed ? 'passed' : 'failed' });
    }
  }

  recordCommandExpired(kind: CommandKind): void {
    this.#commandsExpired.inc({ kind });
  }

  observeTrapAndSign(seconds: number): void {
    this.#trapAndSignSeconds.observe(seconds);
  }

  /** `reason` should be a short code (`malformed-json`, `schema`, `stale`); free text is cut at ':'. */
  recordRejectedInput(input: InputKind, reason: string): void {
    let label = reason.split(':')[0]?.trim().slice(0, 64) || 'unknown';
    if (!this.#reasons.has(label)) {
      if (this.#reasons.size >= MAX_REASON_LABELS) label = 'other';
      else this.#reasons.add(label);
    }
    this.#rejectedInputs.inc({ input, reason: label });
  }

  recordCommandPublished(kind: CommandKind): void {
    this.#commandsPublished.inc({ kind });
  }

  setOutboxBacklog(records: number): void {
    this.#outboxRecords.set(records);
  }

  /** The Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
