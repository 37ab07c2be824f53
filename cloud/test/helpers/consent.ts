/** Robot consent requests and operator tokens for the consent relay's tests. */
import { randomBytes } from 'node:crypto';
import {
  createEd25519Signer,
  dsseSignStatement,
  ed25519PublicKey,
  generateEd25519,
  jcsDigestHex,
} from '@pentagate/crypto';
import {
  type ConsentRequest,
  type ConsentStatement,
  type DsseEnvelope,
  type Intent,
  PAYLOAD_TYPES,
  toBase64Url,
} from '@pentagate/protocol';

export function liftIntent(robotId: string, intentId = `lift-${randomBytes(4).toString('hex')}`): Intent {
  return {
    v: 1,
    intentId,
    robotId,
    kind: 'joint-trajectory',
    moveClass: 'lift',
    jointNames: ['j1', 'j2'],
    points: [
      { positionsRad: [0.1, 0.2], effortsNm: [120, 30], timeFromStartMs: 500 },
      { positionsRad: [0.2, 0.4], effortsNm: [140, 35], timeFromStartMs: 1000 },
    ],
  };
}

export function consentRequestFor(intent: Intent, nowMs: number, waitMs = 30_000): ConsentRequest {
  return {
    v: 1,
    robotId: intent.robotId,
    intentId: intent.intentId,
    intentDigest: jcsDigestHex(intent),
    intent,
    scope: 'high-torque',
    reasons: ['peak effort 140.0 N·m > threshold 100.0 N·m'],
    moveClass: 'lift',
    peakEffortNm: 140,
    highTorqueThresholdNm: 100,
    torqueLimitsNm: [150, 150],
    pathM: [
      { xM: 0.4, yM: 0.1, zM: 0.3, tMs: 500 },
      { xM: 0.45, yM: 0.2, zM: 0.3, tMs: 1000 },
    ],
    zones: [{ id: 'table', shape: 'box', minM: { x: 0.6, y: -1, z: 0 }, maxM: { x: 1, y: 1, z: 0.2 } }],
    requestedAtMs: nowMs,
    deadlineMs: nowMs + waitMs,
  };
}

export interface TestOperator {
  operatorId: string;
  seed: Uint8Array;
  publicKey: string;
}

export function testOperator(operatorId: string): TestOperator {
  const { privateKey } = generateEd25519();
  return { operatorId, seed: privateKey, publicKey: toBase64Url(ed25519PublicKey(privateKey)) };
}

/** A consent token as `pentagate consent grant` makes it; `overrides` bend the statement for refusal tests. */
export function consentToken(
  operator: TestOperator,
  request: ConsentRequest,
  nowMs: number,
  overrides: Partial<ConsentStatement> = {},
): DsseEnvelope {
  const statement: ConsentStatement = {
    v: 1,
    intentDigest: request.intentDigest,
    robotId: request.robotId,
    operatorId: operator.operatorId,
    scope: request.scope,
    notBefore: nowMs - 1000,
    expiresAt: nowMs + 60_000,
    nonce: toBase64Url(new Uint8Array(randomBytes(18))),
    ...overrides,
  };
  return dsseSignStatement(PAYLOAD_TYPES.consent, statement, createEd25519Signer(operator.seed));
}
