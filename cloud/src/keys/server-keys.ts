/**
 * The server's two signing keys, both from one seed: the `proof` key signs decision statements (DSSE) and
 * the `checkpoint` key signs log checkpoints (C2SP signed notes). The checkpoint seed is derived with
 * HKDF-SHA256 (RFC 5869) under its own label, so the two roles never share a key (a verifier keys its
 * trust store by kid, and a key listed twice under two roles would be ambiguous) while the operator still
 * guards one file.
 */
import { hkdfSync } from 'node:crypto';
import {
  createEd25519Signer,
  createNoteSigner,
  type Ed25519Signer,
  type NoteSigner,
} from '@pentagate/crypto';
import { toBase64Url } from '@pentagate/protocol';
import type { SigningKeyRecord } from '../store/records.js';

const CHECKPOINT_KEY_INFO = 'pentagate checkpoint key v1';

export interface ServerKeys {
  proof: Ed25519Signer;
  checkpoint: Ed25519Signer;
  note: NoteSigner;
  /** The log origin, also the checkpoint key's signer name. */
  origin: string;
}

export function deriveCheckpointSeed(seed: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', seed, new Uint8Array(0), CHECKPOINT_KEY_INFO, 32));
}

export function serverKeysFromSeed(seed: Uint8Array, origin: string): ServerKeys {
  const checkpointSeed = deriveCheckpointSeed(seed);
  return {
    proof: createEd25519Signer(seed),
    checkpoint: createEd25519Signer(checkpointSeed),
    note: createNoteSigner(origin, checkpointSeed),
    origin,
  };
}

/** The metadata rows for both keys, valid from `nowMs` (a repeat insert keeps the first validity start). */
export function signingKeyRecords(keys: ServerKeys, nowMs: number): SigningKeyRecord[] {
  return [
    {
      kid: keys.proof.keyid,
      role: 'proof',
      publicKey: toBase64Url(keys.proof.publicKey),
      name: null,
      notBeforeMs: nowMs,
      notAfterMs: null,
      createdAtMs: nowMs,
    },
    {
      kid: keys.checkpoint.keyid,
      role: 'checkpoint',
      publicKey: toBase64Url(keys.checkpoint.publicKey),
      name: keys.origin,
      notBeforeMs: nowMs,
      notAfterMs: null,
      createdAtMs: nowMs,
    },
  ];
}
