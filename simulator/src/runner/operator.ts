/**
 * The simulated operator: answers a consent request by signing a ConsentStatement (DSSE, Ed25519, ARCHITECTURE.md
 * §4) bound to the intent's digest and publishing it on `…/consent`. The timeline chooses the answer:
 * `grant` (a valid token), `deny` (no token: the intent times out), `late` (a valid token sent after the
 * wait ended), `expired-token` (a token whose validity already ended), `forged` (signed by a key the edge does
 * not trust) and `replay` (the previous token sent again).
 */
import { randomBytes } from 'node:crypto';
import { createEd25519Signer, dsseSignStatement, generateEd25519, jcsDigestHex } from '@pentagate/crypto';
import {
  type ConsentStatement,
  type DsseEnvelope,
  type Intent,
  PAYLOAD_TYPES,
  toBase64Url,
} from '@pentagate/protocol';
import type { ConsentDecision } from '../scenarios/scenario-schema.js';

export class SimulatedOperator {
  readonly operatorId: string;
  readonly #seed: Uint8Array;
  #lastToken: DsseEnvelope | undefined;

  constructor(operatorId: string, seed: Uint8Array) {
    this.operatorId = operatorId;
    this.#seed = seed;
  }

  /** The token to publish for `decision`, or undefined when the operator sends nothing. */
  answer(decision: ConsentDecision, intent: Intent, nowMs: number): DsseEnvelope | undefined {
    if (decision === 'deny') return undefined;
    if (decision === 'replay') return this.#lastToken;
    const expired = decision === 'expired-token';
    const statement: ConsentStatement = {
      v: 1,
      intentDigest: jcsDigestHex(intent),
      robotId: intent.robotId,
      operatorId: this.operatorId,
      scope: 'safety-critical',
      notBefore: nowMs - (expired ? 60_000 : 1000),
      expiresAt: expired ? nowMs - 30_000 : nowMs + 30_000,
      nonce: toBase64Url(new Uint8Array(randomBytes(16))),
    };
    const seed = decision === 'forged' ? generateEd25519().privateKey : this.#seed;
    const token = dsseSignStatement(PAYLOAD_TYPES.consent, statement, createEd25519Signer(seed));
    if (decision !== 'forged') this.#lastToken = token;
    return token;
  }
}
