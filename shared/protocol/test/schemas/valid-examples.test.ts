import t from 'tap';
import type { TSchema } from '@sinclair/typebox';
import {
  ACTION_TYPES,
  type ActionType,
  AuditEntrySchema,
  AuditKitManifestSchema,
  AuthorizationDecisionSchema,
  CalibrationCertificateSchema,
  CheckpointSchema,
  ConsentStatementSchema,
  ConsistencyProofSchema,
  CustodyAttestationSchema,
  DecisionStatementSchema,
  DsseEnvelopeSchema,
  ExecutionResultSchema,
  FirmwareManifestSchema,
  InclusionProofSchema,
  MotorCommandSchema,
  ProofPacketSchema,
  ProposedActionSchema,
  ReplayResultSchema,
  TrustDocumentSchema,
  UnsignedMotorCommandSchema,
  canonicalize,
  readJson,
  schemaIssues,
  validate,
} from '@pentagate/protocol';
import * as fx from './fixtures.js';

const examples: [string, TSchema, () => unknown][] = [
  ['unsigned motor command', UnsignedMotorCommandSchema, fx.unsignedMotorCommand],
  ['motor command', MotorCommandSchema, fx.motorCommand],
  ['DSSE envelope', DsseEnvelopeSchema, fx.dsseEnvelope],
  ['consent statement', ConsentStatementSchema, fx.consentStatement],
  ['firmware manifest', FirmwareManifestSchema, fx.firmwareManifest],
  ['calibration certificate', CalibrationCertificateSchema, fx.calibrationCertificate],
  ['custody attestation', CustodyAttestationSchema, fx.custodyAttestation],
  ['trust document', TrustDocumentSchema, fx.trustDocument],
  ['audit entry', AuditEntrySchema, fx.auditEntry],
  ['checkpoint', CheckpointSchema, fx.checkpoint],
  ['inclusion proof', InclusionProofSchema, fx.inclusionProof],
  ['consistency proof', ConsistencyProofSchema, fx.consistencyProof],
  ['decision statement', DecisionStatementSchema, fx.decisionStatement],
  ['proof packet', ProofPacketSchema, fx.proofPacket],
  ['audit kit manifest', AuditKitManifestSchema, fx.auditKitManifest],
  ['proposed action', ProposedActionSchema, fx.proposedAction],
  ['authorization decision', AuthorizationDecisionSchema, fx.authorizationDecision],
  ['execution result', ExecutionResultSchema, fx.executionResult],
  ['replay result', ReplayResultSchema, fx.replayResult],
];

t.test('every documented example conforms to its schema', async (t) => {
  for (const [what, schema, make] of examples) {
    t.same(schemaIssues(schema, make()), [], what);
  }
});

t.test('examples survive the trip through JCS text and the strict JSON reader', async (t) => {
  // What is signed is JCS; a verifier re-reads it with readJson. Both sides must accept the same value.
  for (const [what, schema, make] of examples) {
    const reread = readJson(canonicalize(make()), { what });
    t.same(validate(schema, reread, what), make(), what);
  }
});

t.test('the nine action types are the closed set of the contract', async (t) => {
  const expected: ActionType[] = [
    'ledger:write',
    'vault:write',
    'policy:update',
    'tool:invoke',
    'data:read',
    'data:export',
    'message:send',
    'actuator:move',
    'actuator:stop',
  ];
  // @ts-expect-error the static type is the literal union, not string
  const notAnAction: ActionType = 'robot:dance';
  t.notOk((ACTION_TYPES as readonly string[]).includes(notAnAction));
  t.same([...ACTION_TYPES], expected);
  for (const a of ACTION_TYPES) t.match(a, /^[a-z]+:[a-z]+$/, `${a} is <area>:<verb>`);
});
