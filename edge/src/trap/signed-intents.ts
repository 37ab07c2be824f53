/**
 * The intents signed whose motion may still run, so that a copy of one is not signed a second time.
 *
 * MQTT at QoS 1 delivers at least once [MQTT-4.3.2]: a planner whose PUBLISH was not acknowledged before its
 * connection dropped sends it again (DUP set), and the broker forwards both copies. An intent carries no time
 * and the copy is byte for byte the original, so the gate cannot tell them apart. Signed again, the copy runs
 * the motion a second time: a base twist drives its duration twice, past the path the gates checked once.
 *
 * So an intent identical to one signed while that motion may still run (until its command's `validUntil`
 * plus the plan's duration, `motionEndsAtMs`) is refused. Once that time has passed the same intent is a new
 * request (a planner sending the arm home again) and is gated afresh. Identity is the whole intent (the
 * SHA-256 of its JCS), not its id: controllers may reuse an id for different moves.
 *
 * A copy has its original's id, so digests are computed only when an intent arrives with the id of one still
 * running: the JCS of a 20-point trajectory costs about as much as the five gates, and every other intent
 * would pay it for nothing.
 */
import { jcsDigestHex } from '@pentagate/crypto';
import type { Intent } from '@pentagate/protocol';

/** The signed command an intent's earlier copy became. */
export interface SignedIntent {
  intentId: string;
  commandSeq: number;
  signedAtMs: number;
  /** Until when the motion it started may run (Unix ms). */
  endsAtMs: number;
}

interface Entry extends SignedIntent {
  intent: Intent;
  /** SHA-256 of its JCS, once a same-id intent made it needed. */
  digest?: string;
}

/**
 * Entries kept at most (each holds its intent, up to 64 KiB on the wire). One is one signed command whose
 * motion may still run; a planner that signs more than this within a motion's length evicts the oldest (the
 * controller runs only the newest command).
 */
export const MAX_SIGNED_INTENTS = 256;

export class SignedIntents {
  /** By command seq, in signing order: the oldest come first. */
  readonly #entries = new Map<number, Entry>();

  /** The earlier signing of an intent identical to `intent` whose motion may still run at `nowMs`, if any. */
  running(intent: Intent, nowMs: number): SignedIntent | undefined {
    let digest: string | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.intentId !== intent.intentId || entry.endsAtMs < nowMs) continue;
      digest ??= jcsDigestHex(intent);
      entry.digest ??= jcsDigestHex(entry.intent);
      if (entry.digest === digest) return entry;
    }
    return undefined;
  }

  /**
   * Records a signing. Entries past their end are dropped from the front, then the oldest while the table is
   * over its bound (each step O(1)).
   */
  add(intent: Intent, signed: SignedIntent, nowMs: number): void {
    this.#entries.set(signed.commandSeq, { ...signed, intent });
    for (const [seq, entry] of this.#entries) {
      if (entry.endsAtMs >= nowMs && this.#entries.size <= MAX_SIGNED_INTENTS) break;
      this.#entries.delete(seq);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
