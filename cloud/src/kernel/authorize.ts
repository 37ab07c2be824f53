/**
 * `authorize`: one request → one AuthorizationDecision, for every route — the kernel's ProposedAction and
 * the agent routes' tool calls (`/agentgate/propose`, `/selfcorrect`) alike, so they share one queue of
 * proposals, approvals, holds and expiry. Reads the tenant's policy, the agent's
 * ledger and metabolic history, decides (decide.ts), then — in ONE store transaction (the platform's
 * commitDecision), which is one durable write — takes the budget reservation, signs the decision for its
 * audit index and writes the `decision` entry, the decision record, the call record and the proposal row.
 * A lost reservation race turns the decision into DENY inside that transaction, so what is signed, what
 * the ledger holds and what the proposal row says agree.
 *
 * The same idempotencyKey in the same tenant returns the first decision (with a fresh proof) instead of
 * deciding again (earlier-decision.ts); the same key with another request is refused. Two requests with
 * one key racing past the first look-up both decide, but the proposal row's unique key lets only one
 * decision commit: the other rolls back whole (no reservation, no audit index) and answers with the first.
 * Region and department are what the tenant's administrator bound to the API key; what the request claims
 * is only checked against that.
 */
import { jcsSha256Hex, ownEnvelopeDigest } from '../pentagon/digest.js';
import {
  type AuthorizationDecision,
  type AuthorizationStatus,
  type DsseEnvelope,
  newId,
  type ProposedAction,
  type VerdictTiers,
} from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { AuditLog } from '../audit/audit-log.js';
import { decisionStatement, NO_POLICY, signDecision } from '../decisions/decision-statement.js';
import { callRecords, HISTORY_LIMIT, ledgerState } from '../decisions/evaluation-inputs.js';
import { type CallFingerprints, callFingerprints, fingerprintScope } from '../pentagon/fingerprint.js';
import type { GovernedAction } from '../pentagon/index.js';
import type { LoadedPolicy } from '../policy/index.js';
import { budgetFor } from '../policy/index.js';
import { proofPacket } from '../routes/proofs.js';
import { proposalRow } from '../store/kernel-rows.js';
import type { ProposalRecord, ProposalState } from '../store/kernel-store.js';
import type { AgentRecord, CallHistoryRecord } from '../store/records.js';
import type { DecisionCommit, RelevantCallsQuery, ReservationRequest } from '../store/store.js';
import { decide, type KernelOutcome } from './decide.js';
import { governedActionFor, toolNameOf } from './governed-action.js';
import { decidedAlike, kernelAgent, requestForMet } from './kernel-agent.js';
import { earlierDecision, proposalHoldingKey } from './earlier-decision.js';
import type { KernelContext } from './kernel-context.js';
import { openCapCount, refuseAtOpenCap, refuseBeyondOpenCap } from './open-proposals-cap.js';
import { storedVerdict } from './stored-verdict.js';
import type { JurisdictionClaims, KernelDecisionRecord, LostRace, ReplayInput } from './replay-input.js';

/** Which route a decision came from (audit entries and metrics name it). */
export type DecisionRoute = 'kernel.authorize' | 'agentgate.propose' | 'selfcorrect';

/** What each route calls the key a repeat is recognised by, for the refusals that name it. */
const IDEMPOTENCY_KEY_NAMES: Record<DecisionRoute, string> = {
  'kernel.authorize': 'idempotencyKey',
  'agentgate.propose': 'tool_call.id',
  selfcorrect: 'Idempotency-Key',
};

export interface AuthorizeRequest {
  route: DecisionRoute;
  /** The kernel form: as sent on the kernel route; for an agent-route call, `tool:invoke` with its confidence. */
  action: ProposedAction;
  /** The body exactly as sent: the signed subject, and (its digest) what approvals and repeats bind to. */
  actionRequest: unknown;
  /** `name` in the signed subject, e.g. `agentgate.propose:payments.transfer`. */
  subjectName: string;
  idempotencyKey?: string;
  /** The agent, when the route already met it; else `action.context.agentId` (met here, kernel-agent.ts). */
  agent?: AgentRecord;
  /**
   * Set when `agent` is met for the first time and is not registered yet (kernel-agent.ts, requestForMet). It
   * is registered only once the proposal is admitted — past every refusal that comes before a decision — so a
   * refused first proposal creates nothing (last review, item 2). When the record stored differs from `agent`
   * (its name's older registration holds the account, or a concurrent first contact registered it), the
   * proposal is decided again on `requestFor(stored)`.
   */
  firstContact?: { register(): Promise<AgentRecord>; requestFor(agent: AgentRecord): AuthorizeRequest };
  /** An agent-route call's governed form (region and department are set here from the key's binding). */
  governed?: GovernedAction;
  /** Region and department the request claims. */
  claims?: JurisdictionClaims;
  /**
   * An ALLOW is settled at once: on the agent routes approved means the tool runs, and no execute call
   * follows. Its reservation stays in the ledger's window like any spend.
   */
  settleAllow?: boolean;
  /** Attach the proof packet to the decision (default true; the agent routes answer with a token instead). */
  withProof?: boolean;
}

export interface AuthorizeResult {
  decision: AuthorizationDecision;
  /** False when an idempotent repeat returned an earlier decision. */
  created: boolean;
  /** The signed decision (its statement holds the tier results). */
  envelope: DsseEnvelope;
  /**
   * The tier results as signed in `envelope`: for a new decision the object the statement was built from
   * (its JSON is what was signed), so an answer need not decode the payload it has just encoded.
   */
  tiers: VerdictTiers;
  reason: string;
}

/**
 * The proposal's state as decided: a DENY is final; an ALLOW the agent routes settle at once (no execute
 * follows) is executed; anything else waits — for execute, an operator or its hold.
 */
function proposalState(status: AuthorizationStatus, settleAllow: boolean): ProposalState {
  if (status === 'DENY') return 'denied';
  return status === 'ALLOW' && settleAllow ? 'executed' : 'open';
}

function reservationFor(
  outcome: KernelOutcome,
  limit: number,
  windowMs: number,
  nowMs: number,
): ReservationRequest | undefined {
  if (outcome.decision.status === 'DENY' || outcome.reserveAmount <= 0) return undefined;
  return { id: newId('res', nowMs), amount: outcome.reserveAmount, limit, windowMs };
}

/** The governed form with the jurisdiction bound to the caller's key (never the one the request claims). */
function boundGoverned(req: AuthorizeRequest, caller: Caller, lobeName: string): GovernedAction {
  const governed = { ...(req.governed ?? governedActionFor(req.action, lobeName)) };
  // a kernel proposal's payload.region / payload.department are claims like the agent routes' extras
  const claims: JurisdictionClaims = { ...req.claims };
  if (!req.governed && governed.region !== undefined) claims.region = governed.region;
  if (!req.governed && governed.department !== undefined) claims.department = governed.department;
  delete governed.region;
  delete governed.department;
  delete governed.claims;
  if (caller.region !== undefined) governed.region = caller.region;
  if (caller.department !== undefined) governed.department = caller.department;
  if (claims.region !== undefined || claims.department !== undefined) governed.claims = claims;
  return governed;
}

export async function authorize(
  k: KernelContext,
  caller: Caller,
  req: AuthorizeRequest,
): Promise<AuthorizeResult> {
  // the kernel route names its agent in the action: met first (a key bound to another agent is refused
  // before even a repeat is answered), and registered only once admitted
  if (!req.agent) {
    const met = await kernelAgent(k, caller, req.action.context.agentId, k.nowMs());
    return authorize(
      k,
      caller,
      requestForMet(met, (agent) => ({ ...req, agent })),
    );
  }
  const agent = req.agent;
  const { cloud } = k;
  const { action } = req;
  const tenantId = caller.tenantId;
  const nowMs = k.nowMs();
  const actionDigest = jcsSha256Hex(req.actionRequest);
  const keyName = IDEMPOTENCY_KEY_NAMES[req.route];
  // the answer to a repeat of the key, found before deciding or after a concurrent request took it
  const answerEarlier = (existing: ProposalRecord, raced: boolean) =>
    earlierDecision(
      k,
      tenantId,
      existing,
      { actionDigest, callerKeyId: caller.keyId, raced },
      keyName,
      req.withProof !== false,
      req.settleAllow === true,
    );
  if (req.idempotencyKey !== undefined) {
    const existing = await k.store.findByIdempotencyKey(tenantId, req.idempotencyKey);
    if (existing) return answerEarlier(existing, false);
  }
  const policy = await cloud.policies.forTenant(tenantId, nowMs);
  const budget = policy ? budgetFor(policy, { agentId: agent.id, lobeName: agent.lobeName }) : undefined;
  const totals = budget
    ? await cloud.store.ledgerTotals(tenantId, agent.accountId, budget.windowMs, nowMs)
    : { spent: 0, reserved: 0 };
  const governed = boundGoverned(req, caller, agent.lobeName);
  // taken once: the history is read by them, and the evaluation uses them
  // the budget, the call history and the fingerprints are the agent account's, shared by its versions
  const identity = {
    agentId: agent.id,
    accountId: agent.accountId,
    lobeName: agent.lobeName,
    domain: agent.domain,
    tenantId,
  };
  const prints = callFingerprints(
    fingerprintScope(identity, governed.lobeName),
    governed.toolName,
    governed.arguments,
  );
  const historyQuery = policy ? metabolicQuery(governed.toolName, prints, policy, nowMs) : undefined;
  const history = historyQuery
    ? await cloud.store.relevantCalls(tenantId, agent.accountId, historyQuery)
    : [];
  const proposalId = newId('prp', nowMs);
  const input: ReplayInput = {
    v: 1,
    proposalId,
    action,
    governed,
    agent: identity,
    ledger: ledgerState(budget, totals),
    history: callRecords(history, nowMs),
    nowMs,
    settings: {
      minConfidence: k.settings.minConfidence,
      policyUpdateHoldMs: k.settings.policyUpdateHoldMs,
      bulkExportRecords: k.settings.bulkExportRecords,
      executeTtlMs: k.settings.executeTtlMs,
      approvalTtlMs: k.settings.approvalTtlMs,
    },
    policyDigest: policy?.digest ?? NO_POLICY.digest,
  };
  const outcome = decide(input, policy, k.custodyTrust, undefined, prints);
  // before anything is reserved or written: a key at its cap queues nothing more for an operator
  await refuseBeyondOpenCap(k, caller, outcome.decision.status);
  if (req.firstContact) {
    const registered = await req.firstContact.register();
    if (!decidedAlike(registered, agent))
      return authorize(k, caller, req.firstContact.requestFor(registered));
  }
  const b = outcome.verdict.tiers.tier3.economic.budget;
  // the limit net of the reserve the policy keeps back, as the governor computes it
  const limit = budget ? b.limit * (1 - b.reservePercent / 100) : 0;
  const reservation = reservationFor(outcome, limit, budget?.windowMs ?? 0, nowMs);
  const policyRef = policy ? { id: policy.id, digest: policy.digest } : NO_POLICY;
  const capCount = openCapCount(k, caller, outcome.decision.status);
  let commit: DecisionCommit<{ outcome: KernelOutcome; envelope: DsseEnvelope }>;
  try {
    commit = await cloud.store.commitDecision({
      tenantId,
      agentId: agent.accountId,
      nowMs,
      ...(reservation ? { reservation } : {}),
      // a veto stays a veto with more history; anything else is decided again on the calls committed by then
      ...(historyQuery && outcome.decision.status !== 'DENY' ? { history: historyQuery } : {}),
      ...(capCount ? { count: capCount } : {}),
      build: (ctx) => {
        // calls decided concurrently with this one count against its loop and probing limits too; the
        // input recorded for replay is the one decided, so a replay reproduces the veto
        const decided =
          ctx.history && !sameCalls(ctx.history, history)
            ? { ...input, history: callRecords(ctx.history, nowMs) }
            : input;
        let o = decided === input ? outcome : decide(decided, policy, k.custodyTrust, undefined, prints);
        const reserving = reservation !== undefined && o.reserveAmount > 0;
        const lostRace: LostRace | undefined =
          reserving && !ctx.reserved ? { reservation, ledger: ctx.ledger } : undefined;
        if (lostRace) o = decide(decided, policy, k.custodyTrust, lostRace, prints);
        const d = o.decision;
        // the cap again, on the count read under the transaction's locks: of simultaneous proposals of one
        // key only as many as the cap leaves room for commit; the rest roll back whole (nothing written).
        // Deciding again here only ever turns a decision into a DENY, so a decision that did not wait for a
        // human before the transaction (no count asked) does not wait for one now.
        refuseAtOpenCap(k.settings.openProposalsPerKey, caller, d.status, ctx.count);
        const reservedAmount = reserving && !lostRace ? reservation.amount : 0;
        const statement = decisionStatement({
          subjectName: req.subjectName,
          subjectDigest: actionDigest,
          decisionId: proposalId,
          outcome: d.status,
          tenantId,
          agentId: agent.id,
          policy: policyRef,
          tiers: o.verdict.tiers as unknown as Record<string, unknown>,
          reservedBudget: reservedAmount,
          issuedAtMs: nowMs,
          expiresAtMs: Date.parse(d.expiresAt),
          auditOrigin: cloud.keys.origin,
          auditIndex: ctx.index,
        });
        const envelope = signDecision(statement, cloud.keys.proof);
        const codes = d.violations.map((v) => v.code);
        const entry = AuditLog.builder(
          {
            type: 'decision',
            tenantId,
            actor: agent.id,
            subjectDigest: ownEnvelopeDigest(envelope),
            data: {
              decisionId: proposalId,
              proposalId,
              route: req.route,
              actionType: action.type,
              outcome: d.status,
              agentId: agent.id,
              lobeName: agent.lobeName,
              toolName: decided.governed?.toolName ?? toolNameOf(action),
              ...agentVersionData(agent),
              requestDigest: actionDigest,
              policy: policyRef,
              reservedBudget: reservedAmount,
              violations: codes,
              expiresAt: d.expiresAt,
              ...(d.holdUntil ? { holdUntil: d.holdUntil } : {}),
              envelope,
            },
          },
          nowMs,
        )(ctx.index);
        const kernel: KernelDecisionRecord = {
          input: decided,
          ...(req.route === 'kernel.authorize'
            ? {}
            : { origin: { route: req.route, subjectName: req.subjectName } }),
          ...(lostRace ? { lostRace } : {}),
          reservationId: reservedAmount > 0 ? reservation!.id : null,
          policy: policyRef,
        };
        return {
          result: { outcome: o, envelope },
          parts: {
            entry,
            decision: {
              id: proposalId,
              tenantId,
              agentId: agent.id,
              outcome: d.status,
              approved: d.status === 'ALLOW',
              createdAtMs: nowMs,
              subjectDigest: actionDigest,
              policyDigest: policy?.digest ?? null,
              reservedAmount,
              // the envelope (with the tier results) is stored once, in the audit entry above
              verdict: storedVerdict(
                { reason: o.verdict.reason, decision: d, kernel },
                { id: proposalId, tenantId, agentId: agent.id },
              ),
            },
            call: {
              toolName: input.governed?.toolName ?? toolNameOf(action),
              fingerprint: o.verdict.fingerprint,
              nearFingerprint: o.verdict.nearFingerprint,
              atMs: nowMs,
              approved: d.status === 'ALLOW',
              violations: codes,
            },
            // built here, from the decision as signed, so the row holds the final status even when the
            // reservation race was lost; a taken idempotency key fails this decision alone (RowConflict)
            rows: [
              proposalRow({
                tenantId,
                id: proposalId,
                agentId: agent.id,
                status: d.status,
                state: proposalState(d.status, req.settleAllow === true),
                actionType: action.type,
                actionDigest,
                idempotencyKey: req.idempotencyKey ?? null,
                reservationId: reservedAmount > 0 ? reservation!.id : null,
                createdAtMs: nowMs,
                expiresAtMs: Date.parse(d.expiresAt),
                holdUntilMs: d.holdUntil ? Date.parse(d.holdUntil) : null,
                updatedAtMs: nowMs,
                settledBy: null,
                proposedBy: caller.keyId,
              }),
            ],
          },
        };
      },
    });
  } catch (err) {
    // a concurrent request took the key first: nothing of this decision was written; answer with that one's
    const existing = await proposalHoldingKey(k, tenantId, req.idempotencyKey, err);
    return answerEarlier(existing, true);
  }
  const decided = commit.result.outcome.decision;
  cloud.metrics.decisions.inc({ route: req.route, outcome: decided.status });
  const proof = req.withProof === false ? undefined : await proofPacket(cloud, tenantId, proposalId);
  return {
    decision: proof ? { ...decided, proof } : decided,
    created: true,
    envelope: commit.result.envelope,
    tiers: commit.result.outcome.verdict.tiers,
    reason: commit.result.outcome.verdict.reason,
  };
}

/**
 * The past calls the metabolic ledger can count for this call (pentagon/tiers/economic.ts): the same
 * fingerprint or near fingerprint in the repeat window, and denied calls of the same tool in the probing
 * window — three index reads, not the agent's whole recent history. They are also what the decision record
 * keeps for replay, so a busy agent's records stay small. Read before deciding and again inside the
 * decision's transaction (DecisionWrite.history).
 */
function metabolicQuery(
  toolName: string,
  prints: CallFingerprints,
  policy: LoadedPolicy,
  nowMs: number,
): RelevantCallsQuery {
  return {
    fingerprint: prints.fingerprint,
    nearFingerprint: prints.nearFingerprint,
    toolName,
    repeatSinceMs: nowMs - policy.metabolic.repeatWindowMs,
    deniedSinceMs: nowMs - policy.metabolic.probingWindowMs,
    limit: HISTORY_LIMIT,
  };
}

/** Whether two reads of the call history found the same calls (both oldest first). */
function sameCalls(a: readonly CallHistoryRecord[], b: readonly CallHistoryRecord[]): boolean {
  return a.length === b.length && a.every((call, i) => call.decisionId === b[i]!.decisionId);
}

/** The registered model and agent version, recorded in every decision's audit entry. */
function agentVersionData(agent: AgentRecord): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof agent.metadata.modelId === 'string') out.modelId = agent.metadata.modelId;
  out.agentVersion = agent.version;
  return out;
}
