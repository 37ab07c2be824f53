/**
 * A decision's signed envelope is stored once: inside its `decision` audit entry (`data.envelope`), which
 * is what an audit kit carries and `pentagate verify kit` checks. The decision row points at that entry by
 * its index. A decision whose entry carries no envelope would lose its proof, so it is refused.
 */
import type { DecisionParts } from '../store.js';
import { StoreError } from '../store-error.js';

export function signedEnvelopeOf(parts: DecisionParts): Record<string, unknown> {
  const envelope = (parts.entry.data as { envelope?: unknown } | undefined)?.envelope;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new StoreError(
      `decision ${parts.decision.id}: expected its audit entry to carry the signed envelope in data.envelope, got ${
        envelope === undefined ? 'none' : typeof envelope
      }`,
    );
  }
  return envelope as Record<string, unknown>;
}
