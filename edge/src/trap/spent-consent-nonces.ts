/**
 * The consent nonces already spent (ARCHITECTURE.md §4 CONSENT: a consent statement is single use). Each is
 * kept until its statement's `expiresAt`: past it the statement is refused on its own, so the nonce can be
 * forgotten and the set stays as small as the consents given within one statement lifetime.
 *
 * `edge run` keeps them in a file of its state directory (FileSpentConsentNonces). Kept only in memory, a
 * statement spent before the edge restarted would release the same intent once more after it — re-sent by
 * the planner or by anyone who can publish intents — until the statement expired.
 */
import { readFileSync } from 'node:fs';
import { PentagateError, describeValue, readJson } from '@pentagate/protocol';
import { replaceFileDurably } from './durable-file.js';

export interface SpentConsentNonces {
  has(nonce: string): boolean;
  /** Records `nonce` as spent until `expiresAtMs`; the file form has it on disk before returning. */
  spend(nonce: string, expiresAtMs: number): void;
  /** Forgets the nonces whose statements expired before `nowMs`. */
  forgetExpired(nowMs: number): void;
  /**
   * The latest time nonces were forgotten up to: a statement that expired before it may have been spent
   * and forgotten, so it cannot be told from a replay. Only a clock that went back (a step, then a
   * correction) brings such a statement inside its validity window again.
   */
  forgottenBeforeMs(): number;
}

/** A spent-nonce file that cannot be read or trusted: the edge refuses to start rather than forget spends. */
export class SpentConsentNoncesError extends PentagateError {
  constructor(message: string) {
    super('CONSENT_NONCES', message);
  }
}

/** In memory: for tests, benchmarks and replay, where no process outlives the gate. */
export class MemorySpentConsentNonces implements SpentConsentNonces {
  protected readonly spent = new Map<string, number>();
  protected forgottenBefore = Number.NEGATIVE_INFINITY;

  has(nonce: string): boolean {
    return this.spent.has(nonce);
  }

  spend(nonce: string, expiresAtMs: number): void {
    this.spent.set(nonce, expiresAtMs);
  }

  forgetExpired(nowMs: number): void {
    for (const [nonce, expiresAtMs] of this.spent) if (expiresAtMs < nowMs) this.spent.delete(nonce);
    this.forgottenBefore = Math.max(this.forgottenBefore, nowMs);
  }

  forgottenBeforeMs(): number {
    return this.forgottenBefore;
  }
}

interface NonceFile {
  v: 1;
  /** forgottenBeforeMs when the file was written (absent in files written before it was kept). */
  forgottenBefore?: number;
  spent: { nonce: string; expiresAt: number }[];
}

/** The nonce form of the consent statement schema (shared/protocol consent.ts). */
const NONCE = /^[A-Za-z0-9_-]{16,128}$/;

function isNonceFile(x: unknown): x is NonceFile {
  const f = x as Partial<NonceFile> | null;
  return (
    !!f &&
    typeof f === 'object' &&
    f.v === 1 &&
    (f.forgottenBefore === undefined || Number.isSafeInteger(f.forgottenBefore)) &&
    Array.isArray(f.spent) &&
    f.spent.every(
      (s) =>
        !!s &&
        typeof s === 'object' &&
        typeof s.nonce === 'string' &&
        NONCE.test(s.nonce) &&
        Number.isSafeInteger(s.expiresAt),
    )
  );
}

/**
 * Spent nonces in a file, rewritten whole (durable-file.ts) on every spend: a consent is a person's act,
 * seconds apart, so one fsync each costs nothing that matters, and a spend is on disk before the intent
 * it released is signed.
 */
export class FileSpentConsentNonces extends MemorySpentConsentNonces {
  readonly path: string;

  private constructor(path: string) {
    super();
    this.path = path;
  }

  /** Opens (or creates) the file at `path`, keeping the nonces not expired at `nowMs`. */
  static open(path: string, nowMs: number): FileSpentConsentNonces {
    const store = new FileSpentConsentNonces(path);
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new SpentConsentNoncesError(
          `cannot read spent consent nonces ${path}: ${(err as Error).message}`,
        );
      }
    }
    if (text !== undefined) {
      let value: unknown;
      try {
        value = readJson(text, { what: 'spent consent nonces' });
      } catch (err) {
        throw new SpentConsentNoncesError(
          `spent consent nonces ${path} are damaged: ${(err as Error).message}`,
        );
      }
      if (!isNonceFile(value)) {
        throw new SpentConsentNoncesError(
          `spent consent nonces ${path}: expected { v: 1, forgottenBefore?, spent: [{ nonce, expiresAt }] }, got ${describeValue(value)} ${text.slice(0, 80)}`,
        );
      }
      for (const s of value.spent) store.spent.set(s.nonce, s.expiresAt);
      if (value.forgottenBefore !== undefined) store.forgottenBefore = value.forgottenBefore;
    }
    // what expired by now is dropped, and the time recorded with the file
    store.forgetExpired(nowMs);
    store.#write();
    return store;
  }

  override spend(nonce: string, expiresAtMs: number): void {
    const before = this.spent.get(nonce);
    this.spent.set(nonce, expiresAtMs);
    try {
      this.#write();
    } catch (err) {
      // not on disk, so not spent: the caller refuses the consent and nothing changed
      if (before === undefined) this.spent.delete(nonce);
      else this.spent.set(nonce, before);
      throw new SpentConsentNoncesError(
        `cannot record spent consent nonce in ${this.path}: ${(err as Error).message}`,
      );
    }
  }

  #write(): void {
    const file: NonceFile = {
      v: 1,
      ...(Number.isFinite(this.forgottenBefore) ? { forgottenBefore: this.forgottenBefore } : {}),
      spent: [...this.spent].map(([nonce, expiresAt]) => ({ nonce, expiresAt })),
    };
    replaceFileDurably(this.path, Buffer.from(`${JSON.stringify(file)}\n`, 'utf8'));
  }
}
