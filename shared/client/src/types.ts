/**
 * The kernel's wire types, as TypeScript types, const arrays and (for §2.1's enumerations) frozen objects.
 * The client depends on nothing, so these are copies of the shapes in @pentagate/protocol
 * (schemas/kernel.ts, action-type.ts, proof.ts, audit.ts); shared/client/test/types-match-protocol.test.ts
 * checks they stay structurally identical.
 * Times are ISO 8601 strings where the field says so; digests are 64 lower-case hex characters.
 */

/** The closed set of action types (see @pentagate/protocol schemas/action-type.ts for what each means). */
export const ACTION_TYPES = [
  'ledger:write',
  'vault:write',
  'policy:update',
  'tool:invoke',
  'data:read',
  'data:export',
  'message:send',
  'actuator:move',
  'actuator:stop',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** `ledger:write` → `LEDGER_WRITE`, `ALLOW` → `ALLOW`. */
type ConstantName<V extends string> = Uppercase<V extends `${infer A}:${infer B}` ? `${A}_${B}` : V>;

/** A frozen object of `values`, each under its ConstantName, for callers that write `ActionType.X`. */
function constants<const V extends string>(
  values: readonly V[],
): { readonly [K in V as ConstantName<K>]: K } {
  return Object.freeze(Object.fromEntries(values.map((v) => [v.replace(':', '_').toUpperCase(), v]))) as {
    readonly [K in V as ConstantName<K>]: K;
  };
}

/**
 * Specification §2.1 names ActionType as an export: the value (`ActionType.LEDGER_WRITE === 'ledger:write'`)
 * beside the type of the same name, so plain JavaScript has it too.
 */
export const ActionType = constants(ACTION_TYPES);

/** ALLOW and DENY are final; REQUIRE_HUMAN waits for an operator; HELD_FOR_VETO runs after its hold unless vetoed. */
export const AUTHORIZATION_STATUSES = ['ALLOW', 'DENY', 'REQUIRE_HUMAN', 'HELD_FOR_VETO'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];
/** Specification §2.1's AuthorizationStatus as a value (`AuthorizationStatus.ALLOW === 'ALLOW'`), as ActionType. */
export const AuthorizationStatus = constants(AUTHORIZATION_STATUSES);

export const VERTICES = ['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT'] as const;
export type Vertex = (typeof VERTICES)[number];

export interface Violation {
  /** Stable code `<VERTEX>.<REASON>`, e.g. `ECONOMY.BUDGET_EXCEEDED`. */
  code: string;
  vertex: Vertex;
  message: string;
}

export interface ProposedAction {
  type: ActionType;
  /** The action's arguments (`ledger:write`: `amount` and `recipient`). */
  payload: { [key: string]: unknown };
  context: {
    agentId: string;
    /** 0..1; below the kernel's threshold (default 0.5) a human decides (REQUIRE_HUMAN). */
    confidenceScore: number;
    sessionId?: string;
    /** Why the agent wants this; shown to the approving human and screened for injection. */
    reason?: string;
  };
  /** Same key, same tenant → the same decision (and the client may retry the call safely). */
  idempotencyKey?: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** Standard base64. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

export interface AuditEntry {
  v: 1;
  /** Position in the log = Merkle leaf index. */
  index: number;
  type: string;
  /** ISO 8601. */
  at: string;
  tenantId?: string;
  actor?: string;
  subjectDigest?: string;
  data: { [key: string]: unknown };
}

export interface InclusionProof {
  leafIndex: number;
  treeSize: number;
  hashes: string[];
}

/** Everything needed to check a decision offline (`pentagate verify proof`). */
export interface ProofPacket {
  v: 1;
  envelope: DsseEnvelope;
  auditEntry?: AuditEntry;
  inclusion?: InclusionProof;
  /** C2SP signed note. */
  checkpoint?: string;
}

export interface AuthorizationDecision {
  proposalId: string;
  status: AuthorizationStatus;
  violations: Violation[];
  remediation?: string;
  proof?: ProofPacket;
  /** HELD_FOR_VETO: executes after this instant (ISO) unless vetoed. */
  holdUntil?: string;
  /** Cannot execute after this instant (ISO). */
  expiresAt: string;
  policyDigest: string;
}

export interface ExecutionResult {
  /** Identifies this execution; recorded in its `execution` audit entry. */
  executionId: string;
  proposalId: string;
  executed: true;
  /** ISO 8601. */
  executedAt: string;
  /** Index of the `execution` audit entry. */
  auditIndex: number;
  proof?: ProofPacket;
  /** A REQUIRE_HUMAN's: the proof packet of the operator's signed approval (outcome APPROVED). */
  approvalProof?: ProofPacket;
}

export interface ReplayDifference {
  /** RFC 6901 JSON Pointer into the decision. */
  path: string;
  original?: unknown;
  replayed?: unknown;
}

export interface ReplayResult {
  proposalId: string;
  original: AuthorizationDecision;
  replayed: AuthorizationDecision;
  identical: boolean;
  differences: ReplayDifference[];
}

export interface AuditEventsQuery {
  type?: string;
  agentId?: string;
  proposalId?: string;
  /** Unix ms or Date, inclusive. */
  from?: number | Date;
  /** Unix ms or Date, exclusive. */
  to?: number | Date;
  cursor?: string;
  /** Page size (default 100); a page holds at most 500 events, so a larger limit gets 500 and a nextCursor. */
  limit?: number;
}

export interface AuditEventsPage {
  events: AuditEntry[];
  /** Present when another page may follow. */
  nextCursor?: string;
}
