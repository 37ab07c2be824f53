/**
 * What an operator's consent token may have to wait for before the gate takes it. The gate verifies a token
 * against the keys it trusts at that moment; keys the cloud enrolled can be retired there at any time (a key
 * that leaked), so with a cloud link a token signed by one reaches the gate only once the keys have been read
 * again after it arrived (the consent relay, uplink/consent-relay.ts). The gate itself never waits: a token
 * held here is taken later, as if it had arrived then.
 */
export interface ConsentScreen {
  /**
   * Undefined: the gate takes the token now. A promise: the gate takes it once the promise settles, either
   * way (then with whatever keys it trusts: a read that failed has left it none from the cloud).
   */
  hold(token: unknown): Promise<void> | undefined;
}
