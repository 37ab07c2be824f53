/**
 * The kernel's own settings. Those that shape a decision (thresholds, hold and expiry times) are copied
 * into every stored replay input, so a replay re-decides under the settings of the day, not today's.
 */
export interface KernelRuleSettings {
  /** context.confidenceScore below this needs a human (CONSENT.LOW_CONFIDENCE). */
  minConfidence: number;
  /** Hold of a `policy:update` before it may execute unless vetoed. */
  policyUpdateHoldMs: number;
  /** A `data:export` of more records than this (payload.recordCount) needs a human. */
  bulkExportRecords: number;
  /** How long an ALLOW (or an elapsed hold) stays executable. */
  executeTtlMs: number;
  /** How long a REQUIRE_HUMAN waits for an operator (and then, approved, for execution) before it expires. */
  approvalTtlMs: number;
}

export interface KernelSettings extends KernelRuleSettings {
  /** How often the expiry sweep runs; 0 turns it off (expiry then happens when a proposal is touched). */
  expirySweepMs: number;
  /**
   * Most proposals one page of `GET /api/v1/approvals` lists (held ones first, by hold end; then the oldest
   * waiting); beyond it the answer says more wait (`moreItems`) and where the next page starts (`nextCursor`).
   */
  approvalsListLimit: number;
  /**
   * Most bytes (the actions' JSON) the list carries; the proposal that would pass it, and those after it, are left
   * to `moreItems`. An action may be ~1 MiB: 500 of them in one answer held the event loop for seconds and took
   * hundreds of MB, and the console reloads the list every 3 s. The oldest proposal is always listed.
   */
  approvalsListMaxBytes: number;
  /**
   * Most open proposals waiting for a human (REQUIRE_HUMAN, HELD_FOR_VETO) one API key may have; a proposal
   * that would pass it is refused (OPEN_PROPOSALS_LIMIT) before anything is reserved or queued. Counted by
   * key, not by the agent named: an unbound key names any agent it likes.
   */
  openProposalsPerKey: number;
}

export const DEFAULT_KERNEL_SETTINGS: KernelSettings = {
  minConfidence: 0.5,
  policyUpdateHoldMs: 10 * 60_000,
  bulkExportRecords: 1000,
  executeTtlMs: 5 * 60_000,
  approvalTtlMs: 60 * 60_000,
  expirySweepMs: 10_000,
  approvalsListLimit: 500,
  approvalsListMaxBytes: 4 * 1024 * 1024,
  openProposalsPerKey: 100,
};
