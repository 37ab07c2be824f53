/**
 * Which signed decisions are approvals. The specification signs proof packets for approved decisions (§1.7)
 * and lets the tool run only on an approval (§4 rules 2–3); the cloud signs every decision — refusals (DENY, VETOED) and those
 * still waiting (REQUIRE_HUMAN, HELD_FOR_VETO) too — so a valid signature says who decided, not what: only
 * an ALLOW, or an operator's APPROVED, lets the tool run. A report says which it was (report.ts,
 * `decision`), so a valid refusal is never read as a valid approval (last review, item 3).
 */

/** The outcomes that are a permission to run: an approval at decision time or by an operator. */
export const APPROVAL_OUTCOMES: readonly string[] = ['ALLOW', 'APPROVED'];

export function isApproval(outcome: string): boolean {
  return APPROVAL_OUTCOMES.includes(outcome);
}

/** How a report names a decision's outcome, e.g. `DENY (not an approval)`. */
export function describeOutcome(outcome: string): string {
  return `${outcome} (${isApproval(outcome) ? 'an approval' : 'not an approval'})`;
}
