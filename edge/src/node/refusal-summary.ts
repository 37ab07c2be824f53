/**
 * Summarises refusals of the same kind from the same source, so a flood of bad input (a restarted publisher,
 * a broken sensor, an attacker) costs one verdict per window instead of one durable outbox record per message.
 *
 * Per key (violation code + source), the first refusal of a window is recorded and published as it is;
 * further ones inside `windowMs` are only counted. When the window is over (`flush`, called on the node's
 * timer, or the next refusal of that key), one summary verdict is recorded with the count, the span and the
 * last detail. Nothing is dropped silently: every refusal is either its own verdict or counted in a summary.
 * Refusals bound to an intent (`intentId`) are never summarised — the planner waits for each of them.
 */
import type { VerdictEvent } from '@pentagate/protocol';

/** Default summary window, ms. */
export const REFUSAL_WINDOW_MS = 10_000;

/** Open windows kept at most; refusals from further sources share one window per code (memory stays bounded). */
export const MAX_REFUSAL_KEYS = 256;

const MAX_VIOLATION_CHARS = 1000;

interface Window {
  firstMs: number;
  lastMs: number;
  suppressed: number;
  lastVerdict: VerdictEvent;
}

export class RefusalSummary {
  readonly #windowMs: number;
  readonly #open = new Map<string, Window>();

  constructor(windowMs = REFUSAL_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** The code (`INPUT.TELEMETRY_OUT_OF_ORDER`) of a verdict's first violation. */
  static #code(v: VerdictEvent): string {
    const first = v.violations[0] ?? '';
    const colon = first.indexOf(':');
    return colon > 0 ? first.slice(0, colon) : first;
  }

  /**
   * Takes a refusal verdict and the source it came from (the topic it arrived on). Returns the
   * verdicts to record and publish now: the refusal itself, nothing (counted), or a closed window's summary
   * followed by the refusal that opens the next window.
   */
  admit(verdict: VerdictEvent, source: string): VerdictEvent[] {
    if (verdict.outcome !== 'rejected-input' || verdict.intentId !== undefined) return [verdict];
    const code = RefusalSummary.#code(verdict);
    let key = `${code}\u0000${source}`;
    if (!this.#open.has(key) && this.#open.size >= MAX_REFUSAL_KEYS) key = `${code}\u0000(other sources)`;
    const open = this.#open.get(key);
    if (open && verdict.atMs - open.firstMs < this.#windowMs && verdict.atMs >= open.firstMs) {
      open.suppressed++;
      open.lastMs = verdict.atMs;
      open.lastVerdict = verdict;
      return [];
    }
    const out: VerdictEvent[] = [];
    if (open) {
      const summary = this.#summary(key, open);
      if (summary) out.push(summary);
    }
    this.#open.set(key, { firstMs: verdict.atMs, lastMs: verdict.atMs, suppressed: 0, lastVerdict: verdict });
    out.push(verdict);
    return out;
  }

  /** Closes every window older than the window length at `nowMs`; returns their summaries. */
  flush(nowMs: number, all = false): VerdictEvent[] {
    const out: VerdictEvent[] = [];
    for (const [key, w] of this.#open) {
      if (!all && nowMs - w.firstMs < this.#windowMs) continue;
      this.#open.delete(key);
      const summary = this.#summary(key, w);
      if (summary) out.push(summary);
    }
    return out;
  }

  #summary(key: string, w: Window): VerdictEvent | undefined {
    if (w.suppressed === 0) return undefined;
    const [code, source] = key.split('\u0000') as [string, string];
    const last = w.lastVerdict.violations[0] ?? '';
    const lastDetail = last.slice(last.indexOf(':') + 1).trim();
    let text = `${code}: ${w.suppressed} more refused from ${source} between ${new Date(w.firstMs).toISOString()} and ${new Date(w.lastMs).toISOString()} (summarised; last: ${lastDetail})`;
    if (text.length > MAX_VIOLATION_CHARS) text = `${text.slice(0, MAX_VIOLATION_CHARS - 1)}…`;
    return {
      v: 1,
      robotId: w.lastVerdict.robotId,
      outcome: 'rejected-input',
      atMs: w.lastMs,
      violations: [text],
      gates: [],
    };
  }
}
