/**
 * A running server's own signing keys, watched for a retirement made while it runs: `pentagate cloud keys
 * retire` is another process writing to the same database, and a server that went on signing with the
 * retired key would hand out approvals every verifier refuses (or keep a leaked key in use). Start-up
 * refuses a retired key (assertSigningKeysActive); this covers the time after.
 *
 * The keys' status is read again through the store every `everyMs` (default 1 s), the way a revoked API key
 * reaches an open live stream (auth.ts `stillAuthenticated`): a plain store read, which on SQLite sees
 * another process's commit from the next turn of the event loop (sqlite-read-snapshot.ts) and on PostgreSQL
 * at once. A signature reads only the flag that read left (`guard`), so the propose path makes no store
 * read for it. Once one of the server's keys is seen retired, that key signs nothing more: every signature
 * with it throws 503 SIGNING_KEY_RETIRED until the server is restarted with the key that replaced it (a
 * retirement is final). A retirement counts from when it is read, also one made with `--at` a later time,
 * as at start-up. So a key signs at most `everyMs` plus one store read after its retirement commits.
 */
import { ApiError } from '../app/errors.js';
import type { SigningKeyRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { retiredOwnKey } from './retire-signing-key.js';
import type { ServerKeys } from './server-keys.js';

/** How often a running server reads its signing keys' status again, by default. */
export const DEFAULT_SIGNING_KEY_CHECK_MS = 1000;

/** A key of the server's read as retired. */
type RetiredKey = SigningKeyRecord & { notAfterMs: number };

export interface SigningKeyWatchReports {
  /** Told once per key, when its retirement is first read. */
  onRetired(key: RetiredKey): void;
  /** A read that failed (the status stays as last read; the next read tries again). */
  onError(err: unknown): void;
}

const NO_REPORTS: SigningKeyWatchReports = { onRetired: () => {}, onError: () => {} };

export class SigningKeyWatch {
  readonly #store: Store;
  readonly #kids: readonly string[];
  readonly #everyMs: number;
  #reports = NO_REPORTS;
  /** The server's keys read as retired, by kid; `#anyRetired` is the one flag a signature reads first. */
  readonly #retired = new Map<string, RetiredKey>();
  #anyRetired = false;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;

  constructor(store: Store, kids: readonly string[], everyMs = DEFAULT_SIGNING_KEY_CHECK_MS) {
    if (!Number.isInteger(everyMs) || everyMs < 1) {
      throw new RangeError(`signingKeyCheckMs must be a positive integer, got ${everyMs}`);
    }
    this.#store = store;
    this.#kids = kids;
    this.#everyMs = everyMs;
  }

  /** Reads the status every `everyMs` until `stop`; the timer does not keep the process alive. */
  start(reports: SigningKeyWatchReports = NO_REPORTS): void {
    if (this.#timer) return;
    this.#reports = reports;
    this.#timer = setInterval(() => void this.check(), this.#everyMs);
    this.#timer.unref();
  }

  /** Stops the reads and waits for one under way (before the store closes). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#reading;
  }

  /** Reads the status now (one read at a time: a slow store does not pile them up). */
  check(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<void> {
    let recorded: SigningKeyRecord[];
    try {
      recorded = await this.#store.listSigningKeys();
    } catch (err) {
      this.#reports.onError(err);
      return;
    }
    for (const kid of this.#kids) {
      if (this.#retired.has(kid)) continue;
      const retired = retiredOwnKey(recorded, [kid]);
      if (!retired) continue;
      this.#retired.set(kid, retired);
      this.#anyRetired = true;
      this.#reports.onRetired(retired);
    }
  }

  /** Throws SIGNING_KEY_RETIRED once `kid` was read as retired; a flag read, no store read. */
  assertActive(kid: string): void {
    if (!this.#anyRetired) return;
    const retired = this.#retired.get(kid);
    if (!retired) return;
    throw new ApiError(
      'SIGNING_KEY_RETIRED',
      `the server's signing key ${kid} (${retired.role}) was retired at ${new Date(retired.notAfterMs).toISOString()} ` +
        '(`pentagate cloud keys retire`) while this server ran, so it signs nothing more with it: the server must be ' +
        'restarted with the key that replaced it (--signing-key FILE)',
    );
  }

  /** The same keys, each refusing to sign once it is read as retired. */
  guard(keys: ServerKeys): ServerKeys {
    const { proof, checkpoint, note } = keys;
    const signing = (kid: string, sign: (message: Uint8Array) => Uint8Array) => (message: Uint8Array) => {
      this.assertActive(kid);
      return sign(message);
    };
    return {
      ...keys,
      proof: {
        keyid: proof.keyid,
        publicKey: proof.publicKey,
        sign: signing(proof.keyid, (m) => proof.sign(m)),
      },
      checkpoint: {
        keyid: checkpoint.keyid,
        publicKey: checkpoint.publicKey,
        sign: signing(checkpoint.keyid, (m) => checkpoint.sign(m)),
      },
      note: { name: note.name, keyHash: note.keyHash, sign: signing(checkpoint.keyid, (m) => note.sign(m)) },
    };
  }
}
