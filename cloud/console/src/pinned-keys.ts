/**
 * The tenant's pinned log keys: the trust document (`GET /api/v1/keys`) is pinned in localStorage the first
 * time this browser sees it (trust on first use) and verification always uses the pinned copy, so a server that
 * later swaps its keys cannot make its own proofs pass; a served document that differs is reported, not adopted.
 */
import type { TrustDocument } from '@pentagate/protocol';
import { api } from './api.js';

const PIN_ITEM = 'pentagate.pinnedKeys';

export interface PinnedKeys {
  document: TrustDocument;
  pinnedAt: string;
  /** Why the served keys differ from the pinned ones, when they do. */
  changed?: string;
}

export async function pinnedKeys(): Promise<PinnedKeys> {
  const served = await api<TrustDocument>('GET', '/api/v1/keys');
  const stored = localStorage.getItem(PIN_ITEM);
  if (!stored) {
    const pin = { document: served, pinnedAt: new Date().toISOString() };
    localStorage.setItem(PIN_ITEM, JSON.stringify(pin));
    return pin;
  }
  const pin = JSON.parse(stored) as PinnedKeys;
  const pinnedKids = new Set(pin.document.keys.map((k) => `${k.kid}:${k.publicKey}`));
  const unknown = served.keys.filter((k) => !pinnedKids.has(`${k.kid}:${k.publicKey}`));
  return unknown.length === 0
    ? pin
    : {
        ...pin,
        changed: `the server now lists ${unknown.length} key(s) not pinned here (${unknown.map((k) => k.kid).join(', ')}); they are not trusted`,
      };
}
