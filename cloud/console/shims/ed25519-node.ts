/**
 * The page's stand-in for @pentagate/crypto's ed25519-node.ts: the same functions on the noble backend
 * (ed25519-noble.ts, which pins the same verification equation, so verdicts are identical). Signing with a seed
 * never happens in the page: the operator's key is a non-extractable WebCrypto key.
 */
import { nobleVerify } from '../../../shared/crypto/src/ed25519-noble.js';

function noSeedsHere(): never {
  throw new Error('the console never holds an Ed25519 seed (its key is a non-extractable WebCrypto key)');
}
export const nodePrivateKey = noSeedsHere;
export const nodePublicKeyOf = noSeedsHere;
export const nodeSign = noSeedsHere;
export const nodeVerify = nobleVerify;
