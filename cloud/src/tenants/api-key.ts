/**
 * API keys: `pgk_` + 32 random bytes in base64url (256 bits). With that much entropy a brute-force search is
 * hopeless, so a fast SHA-256 is the right storage hash (a slow password hash would only slow every
 * request); the key text is shown once and never stored. Lookup is by hash and the final comparison is
 * constant time.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex, timingSafeEqual } from '@pentagate/crypto';
import { fromHex, newId, toBase64Url } from '@pentagate/protocol';
import type { ApiKeyRecord, ApiKeyScope } from '../store/records.js';

export const API_KEY_PREFIX = 'pgk_';
/** `pgk_` + 43 base64url characters. */
export const API_KEY_PATTERN = /^pgk_[A-Za-z0-9_-]{43}$/;

/**
 * A key in text, each of its characters written as itself or percent-encoded (RFC 3986 §2.1: `pgk%5F…`, or
 * every byte `%70%67%6B…`), as a client that encodes its own URL writes it; masking a little more than a key
 * (any `%XX` counted as one of its characters) costs nothing.
 */
const KEY_UNIT = '(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})';
const API_KEYS_IN_TEXT = new RegExp(`(?:p|%70)(?:g|%67)(?:k|%6[Bb])(?:_|%5[Ff])${KEY_UNIT}{43}`, 'g');

/**
 * `text` with every API key in it masked. A client that puts its key in a URL (`?key=pgk_…`, a path) would
 * otherwise have it written to the server log and, in a refusal's message, to the tenant's audit log.
 */
export function withoutApiKeys(text: string): string {
  return text.replace(API_KEYS_IN_TEXT, `${API_KEY_PREFIX}[redacted]`);
}

export interface IssuedApiKey {
  /** The key text: give it to the client now; it cannot be shown again. */
  key: string;
  record: ApiKeyRecord;
}

/** What an administrator binds to a key at issue: its jurisdiction and, for an agent key, its agent. */
export interface KeyBinding {
  region?: string;
  department?: string;
  /** The agent_name the key may act for (app/agent-binding.ts); absent: any agent of the tenant. */
  agent?: string;
}

export function newApiKey(
  tenantId: string,
  scope: ApiKeyScope,
  nowMs: number,
  binding: KeyBinding = {},
): IssuedApiKey {
  const key = API_KEY_PREFIX + toBase64Url(randomBytes(32));
  return {
    key,
    record: {
      id: newId('key', nowMs),
      tenantId,
      scope,
      keyHashHex: hashApiKey(key),
      createdAtMs: nowMs,
      revokedAtMs: null,
      region: binding.region ?? null,
      department: binding.department ?? null,
      agentName: binding.agent ?? null,
    },
  };
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Constant-time check that `key` hashes to the stored hash (the lookup found the row by this hash). */
export function apiKeyMatches(key: string, record: ApiKeyRecord): boolean {
  return timingSafeEqual(
    fromHex(hashApiKey(key), 'api key hash', 32),
    fromHex(record.keyHashHex, 'stored hash', 32),
  );
}
