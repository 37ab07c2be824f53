/**
 * The intents signed whose motion may still run, by the SHA-256 of their JCS, so that a copy of one is not
 * signed a second time.
 *
 * MQTT at QoS 1 delivers at least once [MQTT-4.3.2]: a planner whose PUBLISH was not acknowledged before its
 * connection dropped sends it again (DUP set), and the broker forwards both copies. An intent carries no time
 * and the copy is byte for byte the original, so the gate cannot tell them apart. Signed again, the copy runs
 * the motion a second time: a base twist drives its duration twice, past the path the gates checked once.
 *
 * So an intent identical to one signed while that motion may still run (until its command's `validUntil`
 * plus the plan's duration, `motionEndsAtMs`) is refused. Once that time has passed the same intent is a new
 * request (a planner sending the arm home again) and is gated afresh. Identity is the whole intent, not its
 * id: controllers may reuse an id for different moves.
 */

/** The signed command an intent's earlier copy became. */
export interface SignedIntent {
  intentId: string;
  commandSeq: number;
  signedAtMs: number;
  /** Until when the motion it started may run (Unix ms). */
  endsAtMs: number;
}

/**
 * Entries kept at most. Each is one signed command whose motion has not ended; a planner that signs faster than
 * this within a motion's length evicts the one ending first (the controller runs only the newest command).
 */
export const MAX_SIGNED_INTENTS = 4096;

export class SignedIntents {
  readonly #byDigest = new Map<string, SignedIntent>();

  /** The earlier signing of the intent with this digest whose motion may still run at `nowMs`, if any. */
  running(intentDigest: string, nowMs: number): SignedIntent | undefined {
    const signed = this.#byDigest.get(intentDigest);
    if (signed === undefined) return undefined;
    if (signed.endsAtMs >= nowMs) return signed;
    this.#byDigest.delete(intentDigest);
    return undefined;
  }

  add(intentDigest: string, signed: SignedIntent, nowMs: number): void {
    this.#byDigest.delete(intentDigest);
    this.#byDigest.set(intentDigest, signed);
    if (this.#byDigest.size <= MAX_SIGNED_INTENTS) return;
    for (const [digest, s] of this.#byDigest) if (s.endsAtMs < nowMs) this.#byDigest.delete(digest);
    while (this.#byDigest.size > MAX_SIGNED_INTENTS) this.#evictEndingFirst();
  }

  get size(): number {
    return this.#byDigest.size;
  }

  #evictEndingFirst(): void {
    let first: [string, SignedIntent] | undefined;
    for (const entry of this.#byDigest) if (!first || entry[1].endsAtMs < first[1].endsAtMs) first = entry;
    if (first) this.#byDigest.delete(first[0]);
  }
}
