/**
 * The operator's consent key in this browser: an Ed25519 key pair made by WebCrypto with a non-extractable
 * private key (WebCrypto §14.3.1 generateKey, extractable false), kept as a CryptoKeyPair in IndexedDB (which
 * stores CryptoKey objects by structured clone without exposing their bytes). Only the raw public key ever
 * leaves the page: it is enrolled with `PUT /api/v1/fleet/operator-key`, which answers the operator id.
 * One pair per API key (named by the key's SHA-256, not the key), so operators sharing a browser never share one.
 */
import { ed25519KeyId } from '@pentagate/crypto';
import { toBase64Url, toHex } from '@pentagate/protocol';
import { ApiCallError, api } from './api.js';

const DB_NAME = 'pentagate-console';
const STORE = 'operator-keys';

export interface OperatorKey {
  pair: CryptoKeyPair;
  publicKeyRaw: Uint8Array;
  kid: string;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function openDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(DB_NAME, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

async function slotOf(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return toHex(new Uint8Array(digest));
}

/** The pair kept for this API key, made (non-extractable) and kept on first use. */
export async function operatorKeyFor(apiKey: string): Promise<OperatorKey> {
  const db = await openDb();
  try {
    const slot = await slotOf(apiKey);
    let pair = (await request(db.transaction(STORE).objectStore(STORE).get(slot))) as
      | CryptoKeyPair
      | undefined;
    if (!pair) {
      pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
        'sign',
        'verify',
      ])) as CryptoKeyPair;
      const tx = db.transaction(STORE, 'readwrite');
      await request(tx.objectStore(STORE).put(pair, slot));
    }
    const publicKeyRaw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
    return { pair, publicKeyRaw, kid: ed25519KeyId(publicKeyRaw) };
  } finally {
    db.close();
  }
}

/**
 * Enrols the public key for the signed-in operator; the answer names the operator id to sign as. When the
 * operator already has another key (enrolled from another browser), the cloud refuses to let the API key
 * replace it; that refusal is reported as a plain error, not as the card's own 409, so the card stays
 * decidable once an admin has retired the old key.
 */
export async function enrolOperatorKey(key: OperatorKey): Promise<{ operatorId: string; kid: string }> {
  try {
    return await api('PUT', '/api/v1/fleet/operator-key', { publicKey: toBase64Url(key.publicKeyRaw) });
  } catch (err) {
    if (err instanceof ApiCallError && err.code === 'OPERATOR_KEY_ENROLLED') {
      throw new Error(
        `This browser's consent key ${key.kid} cannot be enrolled: ${err.message}. Nothing was signed.`,
      );
    }
    throw err;
  }
}
