/**
 * A kit's checkpoint against its key's retirement. A checkpoint carries no time (C2SP tlog-checkpoint), so a
 * checkpoint signed by a retired key could have been signed after the retirement, by whoever kept the key;
 * checked "as of" a time before the retirement (--at) it would pass. The entries of a kit carry the times they
 * were appended, and the checkpoint commits to all of them: one appended after the key's `notAfter` shows the
 * checkpoint was signed after the retirement, so it is refused (an export made with the old key after a
 * rotation reads the same way, and is fixed by exporting with the current key).
 */
import type { TrustStore } from '@pentagate/crypto';
import type { AuditEntry } from '@pentagate/protocol';
import type { SignedCheckpoint } from './checkpoint.js';
import type { ReportBuilder } from './report.js';

/** Reads a kit's entries one by one (audit-kit.ts streams them) and then reports the check. */
export class KeyRetirementCheck {
  readonly #notAfter: string | undefined;
  readonly #retiredMs: number;
  readonly #keyid: string;
  #late = 0;
  #first: AuditEntry | undefined;

  constructor(cp: SignedCheckpoint, trust: TrustStore) {
    this.#keyid = cp.keyid;
    this.#notAfter = trust.keys().find((k) => k.kid === cp.keyid)?.notAfter;
    this.#retiredMs = this.#notAfter === undefined ? Number.NaN : Date.parse(this.#notAfter);
  }

  add(entry: AuditEntry): void {
    if (this.#notAfter === undefined || !(Date.parse(entry.at) > this.#retiredMs)) return;
    this.#late++;
    this.#first ??= entry;
  }

  finish(report: ReportBuilder): void {
    const notAfter = this.#notAfter;
    if (notAfter === undefined) return;
    const first = this.#first;
    report.check(
      'checkpoint key retirement',
      first === undefined,
      `every entry was appended by ${notAfter}, when checkpoint key ${this.#keyid} was retired`,
      `expected every entry appended by ${notAfter}, when checkpoint key ${this.#keyid} was retired, got ` +
        `${this.#late} later (entry ${first?.index} at ${first?.at}): the checkpoint was signed after its key's ` +
        'retirement. Export the kit again with the current signing key',
    );
  }
}
