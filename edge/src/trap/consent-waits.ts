/**
 * Intents parked for an operator's consent, and the consent nonces already spent (ARCHITECTURE.md §4
 * CONSENT). A statement whose signature the EdgeGate has verified is checked here against what waits: an
 * intent with its digest must be waiting, its nonce unused (single use), the edge's clock inside its
 * validity window, and its scope enough for the move. Only then is the intent handed back to be gated
 * again; anything else is a violation and the intent keeps waiting until its deadline.
 */
import {
  type ConsentStatement,
  consentDecisionOf,
  edgeViolation,
  MAX_WAITING_CONSENTS_PER_ROBOT,
} from '@pentagate/protocol';
import { consentNeed } from '../gates/consent.js';
import type { ParkedIntent } from '../gates/consent-request.js';
import type { CompiledProfile } from '../profile/compiled-profile.js';
import { MemorySpentConsentNonces, type SpentConsentNonces } from './spent-consent-nonces.js';

/**
 * Most intents that wait for consent at once. Each holds its intent (up to 64 KiB on the wire) and its plan for
 * `consent.timeoutMs`, and each is posted to the cloud's approvals queue: a planner (or anyone with its broker
 * password) flooding safety-critical intents filled memory without bound until the process died, and with it
 * the monitoring of the motion in progress. An operator does not work through more than a few at a time.
 */
export const MAX_CONSENT_WAITS = MAX_WAITING_CONSENTS_PER_ROBOT;

/** Why a statement does not release its intent, with the intent it named when one waits. */
export interface ConsentRefusal {
  violation: string;
  intentId?: string;
  detail?: string;
}

export class ConsentWaits {
  readonly #waiting = new Map<string, ParkedIntent>();
  /** Spent nonces with their statement's expiry (after which the statement is refused anyway). */
  readonly #usedNonces: SpentConsentNonces;

  constructor(usedNonces: SpentConsentNonces = new MemorySpentConsentNonces()) {
    this.#usedNonces = usedNonces;
  }

  /** Parks an intent; false (nothing parked) when MAX_CONSENT_WAITS others already wait. */
  park(intentDigest: string, parked: ParkedIntent): boolean {
    if (!this.#waiting.has(intentDigest) && this.#waiting.size >= MAX_CONSENT_WAITS) return false;
    this.#waiting.set(intentDigest, parked);
    return true;
  }

  get(intentDigest: string): ParkedIntent | undefined {
    return this.#waiting.get(intentDigest);
  }

  /** The parked intents by digest, oldest first. */
  entries(): [string, ParkedIntent][] {
    return [...this.#waiting];
  }

  /** Drops every wait (a new profile: the plans were made for the old one). Spent nonces stay spent. */
  dropWaits(): void {
    this.#waiting.clear();
  }

  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Releases the intent `statement` names, spending its nonce; or, for a denial, ends its wait (`denied`); or
   * says why not (nothing changes then). A denial is held to the same digest, nonce and window checks as a
   * grant, so a captured one cannot be replayed against the same move asked for again.
   */
  release(
    statement: ConsentStatement,
    cp: CompiledProfile,
    nowMs: number,
  ): { released: ParkedIntent } | { denied: ParkedIntent } | { refused: ConsentRefusal } {
    const waiting = this.#waiting.get(statement.intentDigest);
    if (!waiting) {
      return {
        refused: {
          violation: edgeViolation(
            'CONSENT.NO_WAITING_INTENT',
            `no intent with digest ${statement.intentDigest} is waiting for consent`,
          ),
        },
      };
    }
    const intentId = waiting.intent.intentId;
    // Past its deadline the intent no longer waits, even before the expiry sweep (every consentCheckPeriodMs)
    // has turned it into its consent-expired veto: a late token must never release it.
    if (nowMs >= waiting.deadlineMs) {
      return {
        refused: {
          violation: edgeViolation(
            'CONSENT.NO_WAITING_INTENT',
            `intent ${intentId} stopped waiting for consent at ${new Date(waiting.deadlineMs).toISOString()}`,
          ),
          intentId,
        },
      };
    }
    const detail = `intent ${intentId} still waits until ${new Date(waiting.deadlineMs).toISOString()}`;
    const refuse = (violation: string) => ({ refused: { violation, intentId, detail } });
    if (this.#usedNonces.has(statement.nonce)) {
      return refuse(edgeViolation('CONSENT.REPLAYED', `nonce ${statement.nonce} was already used`));
    }
    if (nowMs < statement.notBefore) {
      return refuse(
        edgeViolation(
          'CONSENT.NOT_YET_VALID',
          `consent valid from ${new Date(statement.notBefore).toISOString()}`,
        ),
      );
    }
    if (nowMs > statement.expiresAt) {
      return refuse(
        edgeViolation(
          'CONSENT.EXPIRED',
          `consent expired ${new Date(statement.expiresAt).toISOString()} (${nowMs - statement.expiresAt} ms ago)`,
        ),
      );
    }
    // inside its window by the edge clock, but only because that clock went back past forgotten spends
    const forgottenBefore = this.#usedNonces.forgottenBeforeMs();
    if (statement.expiresAt < forgottenBefore) {
      return refuse(
        edgeViolation(
          'CONSENT.REPLAYED',
          `consent valid until ${new Date(statement.expiresAt).toISOString()}, before spent nonces were forgotten up to ${new Date(forgottenBefore).toISOString()}: the edge clock went back, and this statement may have been used`,
        ),
      );
    }
    if (consentDecisionOf(statement) === 'deny') {
      this.#usedNonces.spend(statement.nonce, statement.expiresAt);
      this.#waiting.delete(statement.intentDigest);
      return { denied: waiting };
    }
    const need = consentNeed(cp, waiting.plan);
    if (need.scope === 'safety-critical' && statement.scope !== 'safety-critical') {
      return refuse(
        edgeViolation(
          'CONSENT.WRONG_SCOPE',
          `this move needs safety-critical consent, got ${statement.scope}`,
        ),
      );
    }
    // spent (on disk, with edge run) before the intent is released: a failed write releases nothing
    this.#usedNonces.spend(statement.nonce, statement.expiresAt);
    this.#waiting.delete(statement.intentDigest);
    return { released: waiting };
  }

  /** Removes and returns the waits past their deadline; forgets nonces of expired statements. */
  expire(nowMs: number): ParkedIntent[] {
    const out: ParkedIntent[] = [];
    for (const [digest, w] of this.#waiting) {
      if (nowMs < w.deadlineMs) continue;
      this.#waiting.delete(digest);
      out.push(w);
    }
    // A statement past its expiry is refused on its own, so its nonce need not be remembered any longer.
    this.#usedNonces.forgetExpired(nowMs);
    return out;
  }
}
