/**
 * The keys a verifier trusts, with their roles and validity windows: the trust document published at
 * `GET /api/v1/keys`, which an auditor saves and uses as a trust file. Loading is strict: every
 * public key must pass the pinned Ed25519 key rule (no small-order or non-canonical points), each kid
 * is the `ed25519KeyId` of its key and unique, and validity windows are real ISO 8601 instants with notBefore <= notAfter.
 */
import { InvalidInputError, fromBase64Url, validate } from '@pentagate/protocol';
import { publicKeyProblem } from './ed25519.js';
import { ed25519KeyId } from './key-id.js';
import { type KeyRole, type TrustDocument, TrustDocumentSchema, type TrustedKey } from '@pentagate/protocol';

// The schema checks the RFC 3339 form; the calendar check catches what a pattern cannot (02-31),
// which Date.parse would silently roll over into March.
function parseInstant(value: string, what: string): number {
  const ms = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (!Number.isFinite(ms) || !(day >= 1 && day <= daysInMonth)) {
    throw new InvalidInputError(
      `${what}: expected an ISO 8601 instant like 2025-01-31T00:00:00Z, got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

interface LoadedKey {
  entry: TrustedKey;
  publicKey: Uint8Array;
  notBeforeMs: number;
  notAfterMs: number;
}

/** Why a key may not be used for `role` at `atMs`, or undefined when it may. */
export type KeyUsability = { ok: true } | { ok: false; reason: string };

export class TrustStore {
  readonly #keys: Map<string, LoadedKey>;

  private constructor(keys: Map<string, LoadedKey>) {
    this.#keys = keys;
  }

  /** Reads a trust document (already-parsed JSON); throws InvalidInputError naming the bad entry. */
  static fromDocument(doc: unknown, what = 'trust document'): TrustStore {
    const parsed = validate(TrustDocumentSchema, doc, what);
    const keys = new Map<string, LoadedKey>();
    parsed.keys.forEach((entry, i) => {
      const at = `${what}: keys[${i}]`;
      if (keys.has(entry.kid)) throw new InvalidInputError(`${at}.kid: duplicate key id "${entry.kid}"`);
      const publicKey = fromBase64Url(entry.publicKey, `${at}.publicKey`, 32);
      const problem = publicKeyProblem(publicKey);
      if (problem) throw new InvalidInputError(`${at}.publicKey: refused, ${problem}`);
      // The kid is derived from the key, so a document cannot pass one key off under another's id.
      const expectedKid = ed25519KeyId(publicKey);
      if (entry.kid !== expectedKid) {
        throw new InvalidInputError(
          `${at}.kid: expected ${expectedKid} (the key id of its publicKey), got ${entry.kid}`,
        );
      }
      const notBeforeMs =
        entry.notBefore === undefined
          ? Number.NEGATIVE_INFINITY
          : parseInstant(entry.notBefore, `${at}.notBefore`);
      const notAfterMs =
        entry.notAfter === undefined
          ? Number.POSITIVE_INFINITY
          : parseInstant(entry.notAfter, `${at}.notAfter`);
      if (notBeforeMs > notAfterMs) {
        throw new InvalidInputError(
          `${at}: expected notBefore <= notAfter, got ${entry.notBefore} > ${entry.notAfter}`,
        );
      }
      keys.set(entry.kid, { entry: { ...entry }, publicKey, notBeforeMs, notAfterMs });
    });
    return new TrustStore(keys);
  }

  get(kid: string): TrustedKey | undefined {
    const k = this.#keys.get(kid);
    return k ? { ...k.entry } : undefined;
  }

  keys(): TrustedKey[] {
    return [...this.#keys.values()].map((k) => ({ ...k.entry }));
  }

  publicKeyOf(kid: string): Uint8Array | undefined {
    const k = this.#keys.get(kid);
    return k ? new Uint8Array(k.publicKey) : undefined;
  }

  toDocument(): TrustDocument {
    return { keys: this.keys() };
  }

  /**
   * Whether key `kid` may be used for one of `roles` at `atMs`. Without `atMs` the validity window is
   * not checked (offline verification states the time it used instead; see the README).
   */
  usability(kid: string, roles?: readonly KeyRole[], atMs?: number): KeyUsability {
    const k = this.#keys.get(kid);
    if (!k) return { ok: false, reason: `key id "${kid}" is not trusted` };
    if (roles && roles.length > 0 && !roles.includes(k.entry.role)) {
      return { ok: false, reason: `key "${kid}" has role ${k.entry.role}, expected ${roles.join(' or ')}` };
    }
    if (atMs !== undefined) {
      if (!Number.isFinite(atMs)) return { ok: false, reason: `verification time is not a finite number` };
      if (atMs < k.notBeforeMs) {
        return { ok: false, reason: `key "${kid}" is not valid before ${k.entry.notBefore}` };
      }
      if (atMs > k.notAfterMs) return { ok: false, reason: `key "${kid}" expired at ${k.entry.notAfter}` };
    }
    return { ok: true };
  }
}
