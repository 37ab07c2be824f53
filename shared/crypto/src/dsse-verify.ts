/**
 * DSSE envelope verification against a TrustStore. The rule: at least one signature must verify
 * under a trusted key that is allowed (role, validity window); a signature by an allowed key that
 * does NOT verify fails the whole envelope, so a tampered signature is never hidden behind another.
 * Signatures by keys the store does not hold are ignored (they may be meant for other verifiers).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { fromBase64, readJson, validate } from '@pentagate/protocol';
import { SignatureError } from './errors.js';
import { type Ed25519Backend, ed25519Verify } from './ed25519.js';
import { pae } from './dsse.js';
import type { TrustStore } from './trust-store.js';
import { DsseEnvelopeSchema, type KeyRole } from '@pentagate/protocol';

export interface VerifyOptions {
  /** Roles a signing key may have; any role when absent. */
  role?: KeyRole | KeyRole[];
  /** Check key validity windows at this instant (Unix ms); unchecked when absent. */
  atMs?: number;
  backend?: Ed25519Backend;
  /** The payloadType the caller expects; any when absent. */
  payloadType?: string;
}

export interface VerifiedEnvelope {
  payloadType: string;
  payload: Uint8Array;
  keyid: string;
}

/** Verifies a DSSE envelope; throws InvalidInputError for a malformed one, SignatureError when it does not verify. */
export function dsseVerify(
  envelope: unknown,
  trust: TrustStore,
  options: VerifyOptions = {},
): VerifiedEnvelope {
  const env = validate(DsseEnvelopeSchema, envelope, 'envelope');
  const payload = fromBase64(env.payload, 'envelope.payload');
  const sigs = env.signatures.map((s, i) => fromBase64(s.sig, `envelope.signatures[${i}].sig`, 64));
  if (options.payloadType !== undefined && env.payloadType !== options.payloadType) {
    throw new SignatureError(
      `envelope.payloadType: expected ${JSON.stringify(options.payloadType)}, got ${JSON.stringify(env.payloadType)}`,
    );
  }
  const roles =
    options.role === undefined ? undefined : Array.isArray(options.role) ? options.role : [options.role];
  const message = pae(env.payloadType, payload);
  const refusals: string[] = [];
  let verifiedBy: string | undefined;
  env.signatures.forEach(({ keyid }, i) => {
    const usable = trust.usability(keyid, roles, options.atMs);
    if (!usable.ok) {
      refusals.push(`signatures[${i}]: ${usable.reason}`);
      return;
    }
    const publicKey = trust.publicKeyOf(keyid) as Uint8Array;
    if (!ed25519Verify(publicKey, message, sigs[i] as Uint8Array, options.backend)) {
      throw new SignatureError(`envelope.signatures[${i}]: signature by key "${keyid}" does not verify`);
    }
    verifiedBy ??= keyid;
  });
  if (verifiedBy === undefined) {
    throw new SignatureError(`envelope: no signature by a trusted key (${refusals.join('; ')})`);
  }
  return { payloadType: env.payloadType, payload, keyid: verifiedBy };
}

/** Verifies the envelope, then parses its payload as JSON and validates it against `schema`. */
export function dsseVerifyStatement<T extends TSchema>(
  envelope: unknown,
  trust: TrustStore,
  schema: T,
  options: VerifyOptions = {},
): { statement: Static<T>; keyid: string } {
  const { payload, keyid } = dsseVerify(envelope, trust, options);
  const value = readJson(payload, { what: 'envelope payload' });
  return { statement: validate(schema, value, 'envelope payload'), keyid };
}
