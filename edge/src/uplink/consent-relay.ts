/**
 * The consent relay, the edge's half. Every move the gate parks for consent is posted to the cloud's
 * approvals queue (with what the operator judges it by, consent-request.ts); while any move waits, the edge
 * holds a request open for tokens (a long poll: robots sit behind NAT, so the edge always dials) and hands
 * each token to the node exactly as if it had arrived on the consent topic — the gate verifies signature,
 * intent digest, robot, validity window and single-use nonce itself, so the cloud can relay but never forge.
 * The operator keys the cloud enrolled are trusted for consent only; they are read when a move is posted and
 * every `keysRefreshMs` while moves wait, and — the read a retirement depends on — again after each token
 * signed by a key the profile does not hold arrives, before the gate takes it (`hold`, the node's consent
 * screen), whether it came through the cloud or on the consent topic. A key retired in the cloud (it may have
 * leaked) therefore releases no move once the retirement is committed; before, the keys read up to
 * `keysRefreshMs` earlier still did (outside review). A key an operator's browser enrolled a moment before
 * its first token is found by the same read.
 *
 * The gate never waits on any of this: a cloud that is down means the move waits as it would without a link,
 * then expires into a veto; `pentagate consent grant` on the consent topic keeps working beside the relay,
 * with the profile's own operator keys at once, with keys from the cloud only while the cloud answers.
 */
import type { ConsentRequest, TrustedKey } from '@pentagate/protocol';
import type { Logger } from 'pino';
import type { ConsentScreen } from '../node/consent-screen.js';
import { type CloudLink, UplinkError } from './cloud-link.js';
import { FreshRead } from './fresh-read.js';

export interface ConsentRelayGate {
  /** The digests of the intents waiting now and until when, edge clock (cheap: polled). */
  waitingConsents(): { intentDigest: string; deadlineMs: number }[];
  /** What an operator needs to judge one of them (built once per waiting intent, when it is posted). */
  consentRequest(intentDigest: string): ConsentRequest | undefined;
  trustOperatorKeys(keys: readonly TrustedKey[]): void;
  /** Whether `kid` is in the profile's own trust document (the cloud can neither add nor retire it). */
  isProfileKey(kid: string): boolean;
}

export interface ConsentRelayOptions {
  link: CloudLink;
  gate: ConsentRelayGate;
  /** Hands a token to the node's consent path (as if published on the consent topic). */
  deliver: (token: unknown) => void;
  logger: Logger;
  /** How often the gate's waiting moves are checked for new ones, ms (default 25; cheap when none wait). */
  pollMs?: number;
  /** How often the enrolled operator keys are read again while moves wait, ms (default 10,000). */
  keysRefreshMs?: number;
  /** How long the cloud may hold a request for tokens, ms (default 20,000). */
  holdMs?: number;
  /** Pause after a failed exchange, ms (default 1,000). */
  retryMs?: number;
}

export class ConsentRelay implements ConsentScreen {
  readonly #o: Required<Omit<ConsentRelayOptions, 'link' | 'gate' | 'deliver' | 'logger'>> &
    ConsentRelayOptions;
  readonly #stop = new AbortController();
  /** Intent digests the cloud has stored a request for, with the edge's deadline of each. */
  readonly #posted = new Map<string, number>();
  /**
   * Posted intents no longer waiting here whose request the cloud still lists, with their deadline: each is
   * closed in the cloud (retried while the cloud is down), so operators never see — and sign — a move that
   * already ran on consent from the consent topic, was vetoed, or was forgotten. Past its deadline the
   * cloud drops it by itself.
   */
  readonly #toClose = new Map<string, number>();
  #loops: Promise<void>[] = [];
  #down = false;
  #keysReadAtMs = Number.NEGATIVE_INFINITY;
  /** The key ids of the operator keys last read from the cloud. */
  #knownKids = new Set<string>();
  /** Every read of the operator keys, one at a time, each applied in the order it was asked for. */
  readonly #keys = new FreshRead(() => this.#readOperatorKeys());

  constructor(options: ConsentRelayOptions) {
    this.#o = { pollMs: 25, holdMs: 20_000, retryMs: 1_000, keysRefreshMs: 10_000, ...options };
  }

  start(): void {
    if (this.#loops.length === 0) this.#loops = [this.#postLoop(), this.#takeLoop()];
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await Promise.all(this.#loops);
    // nothing reads them again from now on, so nothing would notice a retirement
    if (this.#knownKids.size > 0) this.#forgetOperatorKeys('the relay stopped');
  }

  /**
   * The node's consent screen: a token signed by a key the profile does not hold (one the cloud enrolled, or
   * one it may have enrolled a moment ago) reaches the gate only after the operator keys have been read from
   * the cloud again, by a read begun after the token arrived — so a key retired before that read releases
   * nothing. Tokens arriving together share one read. A read that fails leaves the gate no cloud key
   * (#readOperatorKeys), so while the cloud cannot be reached such a token is refused, after at most the
   * link's request timeout; the profile's own keys are never held. While no move waits a token releases
   * nothing, and is not held.
   */
  hold(token: unknown): Promise<void> | undefined {
    if (this.#stop.signal.aborted) return undefined;
    if (this.#o.gate.waitingConsents().length === 0) return undefined;
    if (signerKids(token).every((kid) => this.#o.gate.isProfileKey(kid))) return undefined;
    return this.#keys.fresh().then(
      () => {},
      () => {},
    );
  }

  /**
   * Posts the requests the cloud does not have yet; forgets those no longer waiting. First, once, closes the
   * requests the cloud still lists for this robot: a starting node's gate waits for none of them (its waits
   * lived in the process before), so an operator must not be shown them.
   */
  async #postLoop(): Promise<void> {
    let cleared = false;
    while (!this.#stop.signal.aborted) {
      if (!cleared) {
        try {
          const closed = await this.#o.link.closeAllConsentRequests(this.#stop.signal);
          if (closed > 0) {
            this.#o.logger.info(
              { closed },
              'consent relay: closed the moves an earlier run left in the queue',
            );
          }
          cleared = true;
        } catch (err) {
          if (this.#stop.signal.aborted) break;
          // a refusal (an older cloud without the route, a retired robot) is not fixed by retrying
          cleared = err instanceof UplinkError && err.code === 'CLOUD_REFUSED';
          this.#failed(err);
          if (!cleared) {
            await this.#sleep(this.#o.retryMs);
            continue;
          }
        }
      }
      const waiting = new Map(this.#o.gate.waitingConsents().map((w) => [w.intentDigest, w.deadlineMs]));
      const digests = new Set(waiting.keys());
      for (const [d, deadlineMs] of this.#posted) {
        if (digests.has(d)) continue;
        this.#posted.delete(d);
        this.#toClose.set(d, deadlineMs);
      }
      try {
        await this.#closeEnded();
        const fresh = [...digests]
          .filter((d) => !this.#posted.has(d))
          .map((d) => this.#o.gate.consentRequest(d))
          .filter((r): r is ConsentRequest => r !== undefined);
        const keysOld = Date.now() - this.#keysReadAtMs > this.#o.keysRefreshMs;
        if (fresh.length > 0 || (digests.size > 0 && keysOld)) {
          await this.#keys.fresh();
        } else if (digests.size === 0 && keysOld && this.#knownKids.size > 0) {
          this.#forgetOperatorKeys('no move waits, and they were not read again');
        }
        for (const request of fresh) {
          await this.#o.link.postConsentRequest(request, this.#stop.signal);
          this.#posted.set(request.intentDigest, request.deadlineMs);
          this.#toClose.delete(request.intentDigest);
          this.#o.logger.info(
            { intentId: request.intentId, intentDigest: request.intentDigest, scope: request.scope },
            'consent relay: move waiting for an operator posted to the cloud',
          );
        }
        this.#up();
        await this.#sleep(this.#o.pollMs);
      } catch (err) {
        if (this.#stop.signal.aborted) break;
        this.#failed(err);
        await this.#sleep(this.#o.retryMs);
      }
    }
  }

  /** While any posted move waits, holds a request open for tokens and delivers what comes back. */
  async #takeLoop(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      if (this.#posted.size === 0) {
        await this.#sleep(this.#o.pollMs);
        continue;
      }
      try {
        const tokens = await this.#o.link.takeConsents(this.#o.holdMs, this.#stop.signal);
        if (tokens.length > 0) {
          // the node holds each until the keys are read again (hold): the grant was checked against the
          // keys of its moment, and the signer may have been retired since
          for (const token of tokens) this.#o.deliver(token);
          this.#o.logger.info(
            { tokens: tokens.length },
            'consent relay: operator consent received from the cloud',
          );
        }
        this.#up();
      } catch (err) {
        if (this.#stop.signal.aborted) break;
        this.#failed(err);
        await this.#sleep(this.#o.retryMs);
      }
    }
  }

  /** Closes in the cloud the requests of moves that stopped waiting here (consent-routes.ts, DELETE). */
  async #closeEnded(): Promise<void> {
    for (const [digest, deadlineMs] of this.#toClose) {
      if (Date.now() >= deadlineMs) {
        this.#toClose.delete(digest);
        continue;
      }
      try {
        await this.#o.link.closeConsentRequest(digest, this.#stop.signal);
      } catch (err) {
        // a refusal (a retired robot, a revoked key) is not fixed by retrying; an unreachable cloud may be
        if (!(err instanceof UplinkError && err.code === 'CLOUD_REFUSED')) throw err;
      }
      this.#toClose.delete(digest);
    }
  }

  /**
   * Reads the enrolled operator keys (only ever through #keys); when they cannot be read, the keys read before
   * are trusted no longer. A key the cloud has revoked since stayed trusted for as long as the cloud could not
   * be reached, so a token it signed, published on the consent topic, released a move (fail closed: the
   * profile's own operator keys and the consent topic keep working). Keys not read for `keysRefreshMs` while
   * no move waits are dropped too.
   */
  async #readOperatorKeys(): Promise<void> {
    let keys: TrustedKey[];
    try {
      keys = await this.#o.link.operatorKeys(this.#stop.signal);
      // answered as the relay stopped: stop() has dropped the keys, and nothing would read them again
      if (this.#stop.signal.aborted) throw new UplinkError('CLOUD_UNREACHABLE', 'the consent relay stopped');
    } catch (err) {
      if (this.#knownKids.size > 0) this.#forgetOperatorKeys('they could not be read again');
      throw err;
    }
    this.#o.gate.trustOperatorKeys(keys);
    this.#knownKids = new Set(keys.map((k) => k.kid));
    this.#keysReadAtMs = Date.now();
  }

  /**
   * Stops trusting the cloud-enrolled operator keys until they are read again. They are read again when a move
   * is posted, before any operator can see it; kept while idle, a key revoked in the cloud meanwhile would
   * release a move whose token arrived on the consent topic before that read.
   */
  #forgetOperatorKeys(why: string): void {
    this.#o.gate.trustOperatorKeys([]);
    this.#knownKids = new Set();
    this.#o.logger.info(`consent relay: the cloud-enrolled operator keys are trusted no longer: ${why}`);
  }

  #up(): void {
    if (this.#down) this.#o.logger.info('consent relay: cloud reachable again');
    this.#down = false;
  }

  #failed(err: unknown): void {
    if (!this.#down) {
      this.#o.logger.warn(
        { err: (err as Error).message },
        'consent relay: cloud unreachable; waiting moves can still be granted on the consent topic',
      );
    }
    this.#down = true;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stop.signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.#stop.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#stop.signal.addEventListener('abort', done);
    });
  }
}

/** The key ids a token says it is signed with (a DSSE envelope's `signatures[].keyid`); none for anything else. */
function signerKids(token: unknown): string[] {
  const signatures = (token as { signatures?: unknown } | null)?.signatures;
  if (!Array.isArray(signatures)) return [];
  return signatures
    .map((sig) => (sig as { keyid?: unknown } | null)?.keyid)
    .filter((kid): kid is string => typeof kid === 'string');
}
