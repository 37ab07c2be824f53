/**
 * How often one approved tool call has been answered again. On the agent routes `tool_call.id` is an
 * idempotency key: a repeat gets the first decision, so a client that lost the answer may ask again without
 * reserving twice. But "approved true" means "run the tool now" (spec §4 rule 2), and an agent that sends one
 * call again and again would run it again and again on one decision, past the budget and past the metabolic
 * ledger, which counts decisions, not answers: the endless loop the pre-gate must reject (spec §1.10; spec
 * review: a loop that reused its id was approved every time). So an approval is answered again at most the
 * policy's `metabolic.maxIdentical` times within its `repeatWindowMs`; the next repeat is refused. Repeats
 * sent while the first request was still being decided are not counted (earlier-decision.ts): they are one
 * request sent several times at once, not a loop, which sends again after each answer.
 *
 * Counted in the process (a bounded map): with several replicas a loop is refused after at most that many
 * repeats per replica, still a bound. A lost answer is retried a few times, never in a loop.
 */

/** Most approvals tracked at once; the oldest are forgotten first (a forgotten one starts again at 0). */
const MAX_TRACKED = 10_000;

export class ApprovedRepeats {
  readonly #answeredAtMs = new Map<string, number[]>();

  /**
   * Records one more answer to a repeat of `proposalId` at `nowMs`; returns how many repeats were answered in
   * the window ending now, this one included.
   */
  record(proposalId: string, nowMs: number, windowMs: number): number {
    const times = (this.#answeredAtMs.get(proposalId) ?? []).filter((at) => at > nowMs - windowMs);
    times.push(nowMs);
    // re-inserted: the map's order is the order of last use, so the first key is the least recently used
    this.#answeredAtMs.delete(proposalId);
    this.#answeredAtMs.set(proposalId, times);
    if (this.#answeredAtMs.size > MAX_TRACKED) {
      const oldest = this.#answeredAtMs.keys().next().value;
      if (oldest !== undefined) this.#answeredAtMs.delete(oldest);
    }
    return times.length;
  }

  /** Takes back the answer `record` just counted (the repeat was refused, or failed, instead). */
  forget(proposalId: string): void {
    this.#answeredAtMs.get(proposalId)?.pop();
  }
}
