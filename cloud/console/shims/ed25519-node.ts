/**
 * The page's stand-in for @pentagate/crypto's ed25519-node.ts: verification on the noble backend
 * (ed25519-noble.ts, which pins the same equation, so verdicts are identical). Signing with a seed never
 * happens in the page: the operator's key is a non-extractable WebCrypto key (operator-key.ts).
 */
import { nobleVerify } from '../../../shared/crypto/src/ed25519-noble.js';
import { unavailable } from './node-unavailable.js';

export const nodePrivateKey = unavailable;
export const nodePublicKeyOf = unavailable;
export const nodeSign = unavailable;
export const nodeVerify = nobleVerify;
