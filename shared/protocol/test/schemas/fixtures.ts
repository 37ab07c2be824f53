/**
 * Valid examples of every wire format, built fresh on each call so a test can mutate its copy.
 * Digests, MACs and keys are well-formed but not computed: these tests are about shape, not signatures.
 */
import type {
  AuditEntry,
  AuditKitManifest,
  AuthorizationDecision,
  CalibrationCertificate,
  Checkpoint,
  ConsentStatement,
  ConsistencyProof,
  CustodyAttestation,
  DecisionStatement,
  DsseEnvelope,
  ExecutionResult,
  FirmwareManifest,
  InclusionProof,
  MotorCommand,
  ProofPacket,
  ProposedAction,
  ReplayResult,
  TrustDocument,
  TrustedKey,
  UnsignedMotorCommand,
} from '@pentagate/protocol';

export const DIGEST_A = 'a'.repeat(64);
export const DIGEST_B = '0123456789abcdef'.repeat(4);
/** 32 bytes in base64url (43 chars) and base64 (44 chars). */
export const KEY_B64URL = 'A'.repeat(42) + 'E';
export const HASH_B64 = `${'q'.repeat(42)}E=`;
/** 64 bytes in base64 (an Ed25519 signature). */
export const SIG_B64 = `${'Z'.repeat(85)}g==`;

export const unsignedMotorCommand = (): UnsignedMotorCommand => ({
  v: 1,
  kid: '0123456789abcdef',
  robotId: 'arm-01',
  epoch: 3,
  seq: 42,
  issuedAt: 1_750_000_000_000,
  validUntil: 1_750_000_000_200,
  intentId: 'int_01JXAMPLE0000000000000000',
  setpoints: {
    kind: 'joint',
    jointNames: ['shoulder_pan_joint', 'elbow_joint'],
    points: [
      { positionsRad: [0, 0.5], timeFromStartMs: 0 },
      { positionsRad: [0.1, 0.6], velocitiesRadS: [0.2, 0.2], effortsNm: [12.5, -3], timeFromStartMs: 500 },
    ],
    speedScale: 0.5,
  },
  cfgDigest: DIGEST_A,
  evidenceDigest: DIGEST_B,
});

export const motorCommand = (): MotorCommand => ({ ...unsignedMotorCommand(), mac: KEY_B64URL });

export const dsseEnvelope = (): DsseEnvelope => ({
  payloadType: 'application/vnd.in-toto+json',
  payload: Buffer.from('{"a":1}').toString('base64'),
  signatures: [{ keyid: 'fedcba9876543210', sig: SIG_B64 }],
});

export const consentStatement = (): ConsentStatement => ({
  v: 1,
  intentDigest: DIGEST_A,
  robotId: 'arm-01',
  operatorId: 'op.alice',
  scope: 'high-torque',
  notBefore: 1_750_000_000_000,
  expiresAt: 1_750_000_060_000,
  nonce: 'n0nce-0123456789_abc',
});

export const firmwareManifest = (): FirmwareManifest => ({
  v: 1,
  vendor: 'Acme Robotics',
  model: 'UR-like 5',
  firmwareVersion: '4.2.1-rc2',
  imageSha256: DIGEST_B,
  issuedAt: 1_740_000_000_000,
  robotIds: ['arm-01', 'arm-02'],
});

export const calibrationCertificate = (): CalibrationCertificate => ({
  v: 1,
  lab: 'Metrology Lab GmbH',
  robotId: 'arm-01',
  sensorId: 'lidar-front',
  calibrationId: 'cal-2025-0042',
  issuedAt: 1_740_000_000_000,
  expiresAt: 1_770_000_000_000,
  parameters: { offsetM: 0.012, gain: 1.003 },
});

export const custodyAttestation = (): CustodyAttestation => ({
  v: 1,
  dataDigest: DIGEST_A,
  source: 'crm.example.com',
  custodian: 'Data Office',
  issuedAt: 1_740_000_000_000,
  chain: ['ingest', 'warehouse'],
});

export const trustedKey = (): TrustedKey => ({
  kid: '0123456789abcdef',
  alg: 'Ed25519',
  role: 'checkpoint',
  publicKey: KEY_B64URL,
  notBefore: '2025-01-01T00:00:00Z',
  notAfter: '2026-01-01T00:00:00.000+02:00',
  name: 'pentagate.example/audit',
  comment: 'log signer',
});

export const trustDocument = (): TrustDocument => ({
  keys: [trustedKey(), { kid: 'fedcba9876543210', alg: 'Ed25519', role: 'proof', publicKey: KEY_B64URL }],
});

export const auditEntry = (): AuditEntry => ({
  v: 1,
  index: 0,
  type: 'edge.verdict',
  at: '2025-06-01T12:00:00.123Z',
  tenantId: 'tenant-a',
  actor: 'edge:arm-01',
  subjectDigest: DIGEST_A,
  data: { passed: false, violations: ['RISK.HUMAN_IN_RADIUS'] },
});

export const checkpoint = (): Checkpoint => ({
  origin: 'pentagate.example/audit',
  size: 7,
  rootHash: HASH_B64,
});

export const inclusionProof = (): InclusionProof => ({
  leafIndex: 3,
  treeSize: 7,
  hashes: [HASH_B64, HASH_B64],
});

export const consistencyProof = (): ConsistencyProof => ({ oldSize: 3, newSize: 7, hashes: [HASH_B64] });

export const decisionStatement = (): DecisionStatement => ({
  _type: 'https://in-toto.io/Statement/v1',
  subject: [{ name: 'action-request', digest: { sha256: DIGEST_A } }],
  predicateType: 'https://pentagate.dev/attestation/decision/v1',
  predicate: {
    decisionId: 'dec_01JXAMPLE0000000000000000',
    outcome: 'ALLOW',
    tenantId: 'tenant-a',
    agentId: 'agent-7',
    policy: { id: 'pol-default', digest: DIGEST_B },
    tiers: { tier1: { zkInference: { commitment: DIGEST_A } } },
    reservedBudget: 125.5,
    issuedAt: '2025-06-01T12:00:00.000Z',
    expiresAt: '2025-06-01T12:05:00.000Z',
    auditLog: { origin: 'pentagate.example/audit', index: 12 },
  },
});

export const proofPacket = (): ProofPacket => ({
  v: 1,
  envelope: dsseEnvelope(),
  auditEntry: auditEntry(),
  inclusion: inclusionProof(),
  checkpoint: `pentagate.example/audit\n7\n${HASH_B64}\n\n— pentagate.example/audit AAAA${SIG_B64}\n`,
});

export const auditKitManifest = (): AuditKitManifest => ({
  v: 1,
  origin: 'pentagate.example/audit',
  treeSize: 7,
  createdAt: '2025-06-01T12:00:00Z',
  files: { 'checkpoint.note': DIGEST_A, 'entries.jsonl': DIGEST_B, 'trust.json': DIGEST_A },
});

export const proposedAction = (): ProposedAction => ({
  type: 'ledger:write',
  payload: { account: 'ops', amountCents: 1200 },
  context: { agentId: 'agent-7', confidenceScore: 0.9, sessionId: 'sess-1', reason: 'pay invoice 17' },
  idempotencyKey: 'idem-17',
});

export const authorizationDecision = (): AuthorizationDecision => ({
  proposalId: 'prop_01JXAMPLE0000000000000000',
  status: 'DENY',
  violations: [{ code: 'ECONOMY.BUDGET_EXCEEDED', vertex: 'ECONOMY', message: 'needs 1200, 800 left' }],
  remediation: 'ask for a budget raise',
  proof: proofPacket(),
  expiresAt: '2025-06-01T12:05:00.000Z',
  policyDigest: DIGEST_B,
});

export const executionResult = (): ExecutionResult => ({
  executionId: 'exe_01JXAMPLE0000000000000000',
  proposalId: 'prop_01JXAMPLE0000000000000000',
  executed: true,
  executedAt: '2025-06-01T12:00:01.000Z',
  auditIndex: 13,
  proof: proofPacket(),
});

export const replayResult = (): ReplayResult => {
  const original = authorizationDecision();
  const replayed = { ...authorizationDecision(), status: 'ALLOW' as const, violations: [] };
  return {
    proposalId: original.proposalId,
    original,
    replayed,
    identical: false,
    differences: [
      { path: '/status', original: 'DENY', replayed: 'ALLOW' },
      { path: '/violations/0', original: original.violations[0] },
    ],
  };
};
