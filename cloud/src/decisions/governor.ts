/**
 * One governed decision, start to finish: pick the tenant's policy, read the agent's ledger and metabolic
 * history, evaluate the digital pentagon, then — in ONE store transaction — take the budget reservation,
 * take the audit index, sign the decision statement for that index and write the audit entry, the decision
 * and the call record. A lost reservation race turns an approval into a veto with an ECONOMY violation
 * inside the same transaction, so what is signed is what the ledger holds (ARCHITECTURE.md §5, §7).
 */
import type { TrustStore } from '@pentagate/crypto';
import { type DsseEnvelope, newId, type ToolCall, type Violation } from '@pentagate/protocol';
import { AuditLog } from '../audit/audit-log.js';
import type { ServerKeys } from '../keys/server-keys.js';
import { jcsSha256Hex } from '../pentagon/digest.js';
import { callFingerprints, evaluateToolCall, type PentagonVerdict } from '../pentagon/index.js';
import { budgetFor } from '../policy/index.js';
import type { AgentRecord } from '../store/records.js';
import type { ReservationRequest, Store } from '../store/store.js';
import { decisionStatement, NO_POLICY, signDecision } from './decision-statement.js';
import { callRecords, ledgerState } from './evaluation-inputs.js';
import type { PolicySource } from './policy-source.js';
import { lostBudgetRace } from './budget-race.js';
import { tokenOfFreshEnvelope } from './fresh-token.js';

/**
 * Most history rows read per call. The pentagon's thresholds compare counts of matching calls (at most a
 * few dozen in any sane policy); rows beyond this many cannot change a verdict that is already a veto.
 */
export const HISTORY_LIMIT = 1024;

export type DecisionRoute = 'agentgate.propose' | 'selfcorrect';

export interface GovernRequest {
  route: DecisionRoute;
  tenantId: string;
  agent: AgentRecord;
  call: ToolCall;
  /** What the signed subject digest covers: the request body as the agent sent it. */
  actionRequest: unknown;
  nowMs: number;
}

export interface GovernedDecision {
  decisionId: string;
  approved: boolean;
  status: PentagonVerdict['status'];
  reason: string;
  tiers: PentagonVerdict['tiers'];
  violations: Violation[];
  remediation: string[];
  envelope: DsseEnvelope;
  governanceToken?: string;
  auditIndex: number;
  reservedAmount: number;
}

export interface GovernorOptions {
  store: Store;
  keys: ServerKeys;
  policies: PolicySource;
  /** Keys trusted for custody attestations (role `custody`). */
  custodyTrust: TrustStore;
  /** How long a signed approval stays valid. */
  decisionTtlMs: number;
  evaluate?: typeof evaluateToolCall;
}

export class Governor {
  readonly #o: Required<GovernorOptions>;

  constructor(options: GovernorOptions) {
    this.#o = { evaluate: evaluateToolCall, ...options };
  }

  async govern(req: GovernRequest): Promise<GovernedDecision> {
    const { store, keys } = this.#o;
    const { tenantId, agent, nowMs } = req;
    const policy = await this.#o.policies.forTenant(tenantId, nowMs);
    const budget = policy ? budgetFor(policy, { agentId: agent.id, lobeName: agent.lobeName }) : undefined;
    const totals = budget
      ? await store.ledgerTotals(tenantId, agent.id, budget.windowMs, nowMs)
      : { spent: 0, reserved: 0 };
    // Only the calls the metabolic ledger compares this one with (indexed lookups, not the whole window).
    const prints = callFingerprints(req.call.lobe_name, req.call.tool_name, req.call.arguments);
    const history = policy
      ? await store.relevantCalls(tenantId, agent.id, {
          ...prints,
          toolName: req.call.tool_name,
          repeatSinceMs: nowMs - policy.metabolic.repeatWindowMs,
          deniedSinceMs: nowMs - policy.metabolic.probingWindowMs,
          limit: HISTORY_LIMIT,
        })
      : [];
    const verdict = this.#o.evaluate({
      call: req.call,
      agent: { agentId: agent.id, lobeName: agent.lobeName, domain: agent.domain, tenantId },
      policy,
      ledger: ledgerState(budget, totals),
      history: callRecords(history),
      trust: this.#o.custodyTrust,
      nowMs,
    });

    const decisionId = newId('dec', nowMs);
    let reservation: ReservationRequest | undefined;
    if (verdict.approved && verdict.reserveAmount > 0) {
      const b = verdict.tiers.tier3.economic.budget;
      // The limit net of the reserve the policy keeps back (verdict-tiers: remaining = limit × (1 − reserve%)).
      const limit = budget ? b.limit * (1 - b.reservePercent / 100) : 0;
      reservation = {
        id: newId('res', nowMs),
        amount: verdict.reserveAmount,
        limit,
        windowMs: budget?.windowMs ?? 0,
      };
    }
    const policyRef = policy ? { id: policy.id, digest: policy.digest } : NO_POLICY;

    const commit = await store.commitDecision({
      tenantId,
      agentId: agent.id,
      nowMs,
      ...(reservation ? { reservation } : {}),
      build: (ctx) => {
        const v = ctx.reserved || !reservation ? verdict : lostBudgetRace(verdict, reservation, ctx.ledger);
        const reservedAmount = v.approved && reservation ? reservation.amount : 0;
        const outcome = v.approved ? 'ALLOW' : v.status === 'ALLOW' ? 'DENY' : v.status;
        const statement = decisionStatement({
          subjectName: `${req.route}:${req.call.tool_name}`,
          actionRequest: req.actionRequest,
          decisionId,
          outcome,
          tenantId,
          agentId: agent.id,
          policy: policyRef,
          tiers: v.tiers as unknown as Record<string, unknown>,
          reservedBudget: reservedAmount,
          issuedAtMs: nowMs,
          expiresAtMs: nowMs + this.#o.decisionTtlMs,
          auditOrigin: keys.origin,
          auditIndex: ctx.index,
        });
        const envelope = signDecision(statement, keys.proof);
        const violationCodes = v.violations.map((x) => x.code);
        const entry = AuditLog.builder(
          {
            type: 'decision',
            tenantId,
            actor: agent.id,
            // = envelopeDigest(envelope) without re-validating the envelope just made (contract: sha256hex(JCS))
            subjectDigest: jcsSha256Hex(envelope),
            data: {
              decisionId,
              route: req.route,
              outcome,
              lobeName: agent.lobeName,
              toolName: req.call.tool_name,
              requestDigest: statement.subject[0]!.digest.sha256,
              policy: policyRef,
              reservedBudget: reservedAmount,
              violations: violationCodes,
              // the signed envelope itself, so an audit kit carries every decision proof (verify kit checks it)
              envelope,
            },
          },
          nowMs,
        )(ctx.index);
        const governed: GovernedDecision = {
          decisionId,
          approved: v.approved,
          status: outcome === 'DENY' ? 'DENY' : v.status,
          reason: v.reason,
          tiers: v.tiers,
          violations: v.violations,
          remediation: v.remediation,
          envelope,
          ...(v.approved ? { governanceToken: tokenOfFreshEnvelope(envelope, keys.proof.keyid) } : {}),
          auditIndex: ctx.index,
          reservedAmount,
        };
        return {
          result: governed,
          parts: {
            entry,
            decision: {
              id: decisionId,
              tenantId,
              agentId: agent.id,
              outcome,
              approved: v.approved,
              createdAtMs: nowMs,
              subjectDigest: statement.subject[0]!.digest.sha256,
              policyDigest: policy?.digest ?? null,
              reservedAmount,
              // the tier results are in the signed statement (the entry's envelope); not stored twice
              verdict: {
                approved: v.approved,
                status: governed.status,
                reason: v.reason,
                violations: v.violations,
                remediation: v.remediation,
                reservationId: reservedAmount > 0 ? reservation!.id : null,
              },
            },
            call: {
              toolName: req.call.tool_name,
              fingerprint: v.fingerprint,
              nearFingerprint: v.nearFingerprint,
              atMs: nowMs,
              approved: v.approved,
              violations: violationCodes,
            },
          },
        };
      },
    });
    return commit.result;
  }
}
