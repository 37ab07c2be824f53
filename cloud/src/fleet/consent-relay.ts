/**
 * The consent relay, the cloud's half (ARCHITECTURE.md §4 CONSENT; issue "consent relay"). An edge posts a
 * request for each intent it parks for consent; it waits in the approvals queue beside kernel and
 * agent-route approvals. An operator signs the consent statement with their OWN Ed25519 key (enrolled in
 * the registry, operator-keys.ts) and hands the token to the cloud, which checks it — an enrolled key of
 * the operator the statement names, this robot, this intent digest, the scope the move needs, not expired —
 * stores it once and relays it when the edge next asks (the edge opens every request: robots sit behind NAT).
 * The cloud never signs consent and cannot forge it: the edge verifies the token itself, nonce and expiry
 * included, exactly as one published on its consent topic.
 */
import { dsseVerifyStatement, jcsDigestHex, TrustStore } from '@pentagate/crypto';
import {
  MAX_WAITING_CONSENTS_PER_ROBOT,
  type ConsentDecision,
  type ConsentRequest,
  consentDecisionOf,
  understatedPeakEffort,
  type ConsentStatement,
  ConsentStatementSchema,
  PAYLOAD_TYPES,
  type TrustedKey,
} from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { jsonBytes } from '../app/json-bytes.js';
import { AuditLog } from '../audit/audit-log.js';
import type { ConsentRequestRecord } from '../store/consent-queue.js';
import type { FleetContext } from './fleet-context.js';
import { robotOfCaller } from './edge-ingest.js';
import { operatorTrustedKeys } from './operator-keys.js';

/** Longest an edge's request for tokens is held open, ms (a long poll: tokens reach the edge at once). */
export const MAX_CONSENT_WAIT_MS = 25_000;
/**
 * An edge parks at most MAX_WAITING_CONSENTS_PER_ROBOT intents (@pentagate/protocol), so more requests than
 * that waiting at once are an edge gone wrong or a stolen edge key filling the operators' queue.
 */
export { MAX_WAITING_CONSENTS_PER_ROBOT };
/**
 * Most bytes (JSON) of one robot's requests waiting at once. Every waiting request is sent whole to every
 * operator's approvals list (the console reloads it every 3 s): 64 requests of 1 MiB each, within the body
 * limit, made one list 66 MB that held the event loop for seconds, for every tenant. An edge's request is a
 * few KiB (its intent, one path point per planned point, the zones), so 4 MiB still holds 64 large ones.
 */
export const MAX_WAITING_CONSENT_BYTES_PER_ROBOT = 4 * 1024 * 1024;
/**
 * Furthest ahead a request's deadline may lie: the longest consent wait a profile may set (24 h,
 * RobotProfile consent.timeoutMs) plus an hour for the edge's clock running ahead of this one. A later
 * deadline would keep the request in the operators' queue past any wait an edge can have.
 */
export const MAX_CONSENT_DEADLINE_AHEAD_MS = 25 * 3_600_000;
/** How often a held request re-reads the store, for grants another replica took. */
const RECHECK_MS = 1_000;

/** Wakes the edges' held requests of one robot when a token for it is stored on this replica. */
export class ConsentWakeups {
  readonly #waiters = new Map<string, Set<() => void>>();

  wait(key: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.#waiters.get(key);
      if (!set) {
        set = new Set();
        this.#waiters.set(key, set);
      }
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0) this.#waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  }

  wake(key: string): void {
    for (const wake of [...(this.#waiters.get(key) ?? [])]) wake();
  }
}

const wakeKey = (tenantId: string, robotId: string) => `${tenantId}\u0000${robotId}`;

/** Stores an edge's request (idempotent: a repeat after a restart or a lost answer stores nothing new). */
export async function postConsentRequest(
  f: FleetContext,
  caller: Caller,
  robotId: string,
  request: ConsentRequest,
): Promise<{ stored: boolean; auditIndex?: number }> {
  await robotOfCaller(f, caller, robotId);
  if (request.robotId !== robotId) {
    throw new ApiError('INVALID_BODY', `request is for robot ${request.robotId}, posted for ${robotId}`);
  }
  // The operator signs the digest; it must be the digest of the intent they are shown.
  const digest = jcsDigestHex(request.intent);
  if (digest !== request.intentDigest) {
    throw new ApiError(
      'INVALID_BODY',
      `intentDigest ${request.intentDigest} is not SHA-256(JCS(intent)) = ${digest}`,
    );
  }
  if (request.intent.robotId !== robotId) {
    throw new ApiError('INVALID_BODY', `the intent is for robot ${request.intent.robotId}, not ${robotId}`);
  }
  // The card shows the request's peak torque; the operator signs the intent: the two must not disagree
  // in the intent's disfavour.
  const understated = understatedPeakEffort(request);
  if (understated) throw new ApiError('INVALID_BODY', understated);
  const nowMs = f.nowMs();
  if (request.deadlineMs > nowMs + MAX_CONSENT_DEADLINE_AHEAD_MS) {
    throw new ApiError(
      'INVALID_BODY',
      `deadlineMs ${new Date(request.deadlineMs).toISOString()} is more than 25 h ahead of this server's clock ` +
        `(${new Date(nowMs).toISOString()}); no profile waits that long for consent`,
    );
  }
  const waiting = await f.store.consents.listWaiting(caller.tenantId, nowMs, robotId);
  // a repeat of a request already waiting stores nothing and is never refused for the count or the bytes
  const repeat = waiting.some((w) => w.intentDigest === digest);
  const closeSome = 'close the ones it no longer waits for (DELETE) or let them pass their deadline';
  if (waiting.length >= MAX_WAITING_CONSENTS_PER_ROBOT && !repeat) {
    throw new ApiError(
      'RATE_LIMITED',
      `robot ${robotId} already has ${waiting.length} consent requests waiting, the most one robot may; ${closeSome}`,
    );
  }
  const waitingBytes = waiting.reduce((sum, w) => sum + jsonBytes(w.request), 0);
  if (!repeat && waitingBytes + jsonBytes(request) > MAX_WAITING_CONSENT_BYTES_PER_ROBOT) {
    throw new ApiError(
      'RATE_LIMITED',
      `robot ${robotId}'s waiting consent requests hold ${waitingBytes} bytes; with this one of ` +
        `${jsonBytes(request)} they would pass ${MAX_WAITING_CONSENT_BYTES_PER_ROBOT}, the most one robot may; ${closeSome}`,
    );
  }
  const record: ConsentRequestRecord = {
    tenantId: caller.tenantId,
    robotId,
    intentDigest: digest,
    request,
    state: 'waiting',
    deadlineMs: request.deadlineMs,
    createdAtMs: nowMs,
    operatorId: null,
    grantedAtMs: null,
    deliveredAtMs: null,
  };
  const audit = await f.store.consents.put(
    record,
    AuditLog.builder(
      {
        type: 'consent.request',
        tenantId: caller.tenantId,
        actor: `edge:${robotId}`,
        subjectDigest: digest,
        data: {
          robotId,
          intentId: request.intentId,
          scope: request.scope,
          reasons: request.reasons,
          peakEffortNm: request.peakEffortNm,
          highTorqueThresholdNm: request.highTorqueThresholdNm,
          deadline: new Date(request.deadlineMs).toISOString(),
        },
      },
      nowMs,
    ),
  );
  if (audit) {
    f.live.publish(caller.tenantId, {
      type: 'consent',
      robotId,
      intentId: request.intentId,
      intentDigest: digest,
      scope: request.scope,
      state: 'waiting',
      atMs: nowMs,
    });
  }
  return audit ? { stored: true, auditIndex: audit.index } : { stored: false };
}

/** Why a request takes no grant: granted already, closed by its edge, or past the edge's deadline. */
function closedBecause(request: ConsentRequestRecord, intentDigest: string): string {
  if (request.state === 'closed') {
    return `the edge no longer waits for consent to ${intentDigest} (it was consented on the robot's consent topic, vetoed or superseded)`;
  }
  if (request.state !== 'waiting') {
    return `the consent request for ${intentDigest} was already decided (granted or denied) by ${request.operatorId}`;
  }
  return `the consent request for ${intentDigest} closed ${new Date(request.deadlineMs).toISOString()} (the edge vetoed the move)`;
}

/**
 * The edge says it stopped waiting for consent to an intent before the cloud relayed a token: it took
 * consent from its own consent topic, or the intent was superseded, vetoed or forgotten in a restart. The
 * request leaves the approvals queue at once — otherwise operators see, and may sign, a move that already
 * ran or never will until the edge's deadline passes. Audited (`consent.closed`); a request already granted
 * or unknown is left as it is (closed: false).
 */
export async function closeConsentRequest(
  f: FleetContext,
  caller: Caller,
  robotId: string,
  intentDigest: string,
): Promise<{ closed: boolean; auditIndex?: number }> {
  await robotOfCaller(f, caller, robotId);
  const request = await f.store.consents.get(caller.tenantId, robotId, intentDigest);
  if (request?.state !== 'waiting') return { closed: false };
  const nowMs = f.nowMs();
  const audit = await f.store.consents.close(
    caller.tenantId,
    robotId,
    intentDigest,
    AuditLog.builder(
      {
        type: 'consent.closed',
        tenantId: caller.tenantId,
        actor: `edge:${robotId}`,
        subjectDigest: intentDigest,
        data: { robotId, intentId: request.request.intentId },
      },
      nowMs,
    ),
  );
  if (!audit) return { closed: false };
  f.live.publish(caller.tenantId, {
    type: 'consent',
    robotId,
    intentId: request.request.intentId,
    intentDigest,
    scope: request.request.scope,
    state: 'closed',
    atMs: nowMs,
  });
  return { closed: true, auditIndex: audit.index };
}

/**
 * A starting edge closes every request of its robot still waiting: its gate's waits did not survive the
 * restart, so none of them can take consent any more, and left in the queue they would be signed for nothing
 * until their deadlines (up to the profile's consent timeout). Each close is audited as by
 * closeConsentRequest; resolves with how many were closed.
 */
export async function closeAllConsentRequests(
  f: FleetContext,
  caller: Caller,
  robotId: string,
): Promise<{ closed: number }> {
  await robotOfCaller(f, caller, robotId);
  let closed = 0;
  for (const waiting of await f.store.consents.listWaiting(caller.tenantId, f.nowMs(), robotId)) {
    if ((await closeConsentRequest(f, caller, robotId, waiting.intentDigest)).closed) closed++;
  }
  return { closed };
}

/** How far ahead of this server's clock a grant's notBefore may be: clocks kept by NTP agree far closer. */
const MAX_NOT_BEFORE_AHEAD_MS = 2_000;

function tokenProblem(
  statement: ConsentStatement,
  waiting: ConsentRequestRecord,
  nowMs: number,
  decision: ConsentDecision,
): string | undefined {
  if (consentDecisionOf(statement) !== decision) {
    return decision === 'grant'
      ? 'the statement denies the move (decision "deny"): send it to the deny route'
      : 'the statement grants the move: a denial must say decision "deny"';
  }
  if (statement.robotId !== waiting.robotId) {
    return `the statement is for robot ${statement.robotId}, the request for ${waiting.robotId}`;
  }
  if (statement.intentDigest !== waiting.intentDigest) {
    return `the statement binds intent digest ${statement.intentDigest}, the request ${waiting.intentDigest}`;
  }
  if (statement.expiresAt <= nowMs) {
    return `the statement expired ${new Date(statement.expiresAt).toISOString()}`;
  }
  // The edge takes a grant only from its notBefore on (CONSENT.NOT_YET_VALID otherwise), and relaying one
  // closes the request: a token signed on a clock running ahead was relayed, vetoed by the edge, and could not
  // be sent again (outside review). Refused here, the request stays open for a token signed on a right clock.
  if (decision === 'grant' && statement.notBefore >= waiting.deadlineMs) {
    return (
      `the statement is valid only from ${new Date(statement.notBefore).toISOString()}, after the edge stops ` +
      `waiting (${new Date(waiting.deadlineMs).toISOString()})`
    );
  }
  if (decision === 'grant' && statement.notBefore > nowMs + MAX_NOT_BEFORE_AHEAD_MS) {
    return (
      `the statement is valid only from ${new Date(statement.notBefore).toISOString()}, ahead of this ` +
      `server's clock (${new Date(nowMs).toISOString()}): the edge would refuse it as not yet valid; check the ` +
      "signing computer's clock and sign again"
    );
  }
  // a denial needs no scope: refusing a move takes no more authority than it does to leave it waiting
  if (
    decision === 'grant' &&
    waiting.request.scope === 'safety-critical' &&
    statement.scope !== 'safety-critical'
  ) {
    return `this move needs safety-critical consent, the statement grants ${statement.scope}`;
  }
  return undefined;
}

/**
 * Checks an operator's token — a grant, or a denial (decision `deny`), as the route says — against the
 * request and the enrolled keys, stores it once, wakes the edge. A denial is relayed like a grant, since only
 * the edge can end its wait: it vetoes the move at once (CONSENT.DENIED) instead of at its deadline.
 */
export async function relayOperatorDecision(
  f: FleetContext,
  caller: Caller,
  robotId: string,
  intentDigest: string,
  token: unknown,
  decision: ConsentDecision,
): Promise<{ robotId: string; intentDigest: string; operatorId: string; auditIndex: number }> {
  const nowMs = f.nowMs();
  // a retired robot's waiting moves are nobody's to release: its edge key is revoked, and a token relayed
  // for it would reach whatever still answers as that robot
  await robotOfCaller(f, caller, robotId);
  const waiting = await f.store.consents.get(caller.tenantId, robotId, intentDigest);
  if (!waiting) {
    throw new ApiError(
      'CONSENT_REQUEST_NOT_FOUND',
      `no consent request of robot ${robotId} for intent digest ${intentDigest}`,
    );
  }
  if (waiting.state !== 'waiting' || waiting.deadlineMs <= nowMs) {
    throw new ApiError('CONSENT_REQUEST_CLOSED', closedBecause(waiting, intentDigest));
  }
  const keys = await operatorTrustedKeys(f.store, f.cloud.store, caller.tenantId);
  if (keys.length === 0) {
    throw new ApiError(
      'CONSENT_TOKEN_INVALID',
      'no operator key is enrolled in this tenant (PUT /api/v1/fleet/operator-key or `pentagate cloud operator enroll`)',
    );
  }
  let statement: ConsentStatement;
  let signer: TrustedKey;
  try {
    const verified = dsseVerifyStatement(token, TrustStore.fromDocument({ keys }), ConsentStatementSchema, {
      role: 'operator',
      payloadType: PAYLOAD_TYPES.consent,
      atMs: nowMs,
    });
    statement = verified.statement;
    signer = keys.find((k) => k.kid === verified.keyid) as TrustedKey;
  } catch (err) {
    throw new ApiError('CONSENT_TOKEN_INVALID', `consent token refused: ${(err as Error).message}`);
  }
  // The key signs for the operator it is enrolled for, never for another.
  if (signer.name !== statement.operatorId) {
    throw new ApiError(
      'CONSENT_TOKEN_INVALID',
      `the statement names operator ${statement.operatorId}, the key ${signer.kid} is enrolled for ${signer.name}`,
    );
  }
  const problem = tokenProblem(statement, waiting, nowMs, decision);
  if (problem) throw new ApiError('CONSENT_TOKEN_INVALID', `consent token refused: ${problem}`);
  const audit = await f.store.consents.grant(
    caller.tenantId,
    robotId,
    intentDigest,
    { token, operatorId: statement.operatorId, nowMs },
    AuditLog.builder(
      {
        type: decision === 'grant' ? 'consent.grant' : 'consent.deny',
        tenantId: caller.tenantId,
        actor: statement.operatorId,
        subjectDigest: intentDigest,
        data: {
          robotId,
          intentId: waiting.request.intentId,
          scope: statement.scope,
          kid: signer.kid,
          // The operator's own signature, so an auditor checks the consent offline against the key this log
          // enrolled for them (the verifier's consent-grants.ts), not only the cloud's word.
          token,
          relayedBy: caller.keyId,
          notBefore: new Date(statement.notBefore).toISOString(),
          expiresAt: new Date(statement.expiresAt).toISOString(),
        },
      },
      nowMs,
    ),
  );
  if (!audit) {
    throw new ApiError('CONSENT_REQUEST_CLOSED', `the consent request for ${intentDigest} closed meanwhile`);
  }
  f.consentWakeups.wake(wakeKey(caller.tenantId, robotId));
  f.live.publish(caller.tenantId, {
    type: 'consent',
    robotId,
    intentId: waiting.request.intentId,
    intentDigest,
    scope: statement.scope,
    state: decision === 'grant' ? 'granted' : 'denied',
    operatorId: statement.operatorId,
    atMs: nowMs,
  });
  return { robotId, intentDigest, operatorId: statement.operatorId, auditIndex: audit.index };
}

/**
 * The tokens granted for an edge's waiting intents, each handed out once. Holds the request up to `waitMs`
 * while there are none, so a grant reaches the robot as soon as it is stored.
 */
export async function takeRobotConsents(
  f: FleetContext,
  caller: Caller,
  robotId: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<unknown[]> {
  const until = Date.now() + Math.min(Math.max(0, waitMs), MAX_CONSENT_WAIT_MS);
  for (;;) {
    // An edge that hung up takes nothing: a token is handed out once, so it must reach a listener.
    if (signal.aborted) return [];
    // again on every wake-up: a robot retired while its edge waits (up to 25 s) gets no token
    await robotOfCaller(f, caller, robotId);
    const tokens = await f.store.consents.takeGranted(caller.tenantId, robotId, f.nowMs());
    const left = until - Date.now();
    if (tokens.length > 0 || left <= 0) return tokens;
    await f.consentWakeups.wait(wakeKey(caller.tenantId, robotId), Math.min(left, RECHECK_MS));
  }
}
