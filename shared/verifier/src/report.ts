/**
 * The one result shape of every verifier function: a list of named checks, each passed or failed with a
 * detail a person can act on, and a verdict that is `valid` only when there was at least one check and
 * every check passed (fail closed: an empty report is never valid).
 *
 * Two kinds of bad input are kept apart on purpose. An artifact that is well formed but does not verify
 * (wrong signature, unknown key id, expired key, proof that does not reach the root) is a failed check:
 * the report says INVALID and the CLI exits 1. Input that cannot be read as the artifact at all (not
 * JSON, wrong types, wrong base64, oversized) is thrown as an `InvalidInputError`, and the CLI exits 2.
 */
import { InvalidInputError, PentagateError } from '@pentagate/protocol';

export interface VerificationCheck {
  /** What was checked, e.g. `envelope signature`, `inclusion in checkpoint`. */
  name: string;
  ok: boolean;
  /** What was found: the key that signed, the root that was computed, what was expected and what came. */
  detail: string;
  /**
   * Set on a failed check when the input, though parseable, cannot be checked as given (an unknown key
   * id, a proof of the wrong length for its tree): the CLI exits 2 for those, not 1.
   */
  unreadable?: true;
}

export interface VerificationReport {
  valid: boolean;
  /** What the report is about, e.g. `decision dec_01J… (proof packet)`. */
  subject: string;
  checks: VerificationCheck[];
  /** `name: detail` of every failed check, in order. */
  failures: string[];
  /**
   * The signed decision's outcome, for a report about one (proof packet, governance token), and whether it
   * is an approval (approval.ts): a valid signature over a DENY is a valid refusal, never a permission.
   */
  decision?: DecisionOutcome;
  /** The instant time-dependent checks were evaluated at (ISO); absent when no time was given. */
  at?: string;
}

export interface DecisionOutcome {
  outcome: string;
  approval: boolean;
}

/** Collects checks for one artifact; `finish()` turns them into a VerificationReport. */
export class ReportBuilder {
  subject: string;
  /** Set once a decision statement's signature and schema verified. */
  decision: DecisionOutcome | undefined;
  readonly #checks: VerificationCheck[] = [];

  constructor(subject: string) {
    this.subject = subject;
  }

  pass(name: string, detail: string): true {
    this.#checks.push({ name, ok: true, detail });
    return true;
  }

  fail(name: string, detail: string, options: { unreadable?: boolean } = {}): false {
    this.#checks.push(
      options.unreadable ? { name, ok: false, detail, unreadable: true } : { name, ok: false, detail },
    );
    return false;
  }

  check(name: string, ok: boolean, okDetail: string, failDetail: string): boolean {
    return ok ? this.pass(name, okDetail) : this.fail(name, failDetail);
  }

  /**
   * Runs one verification step. A PentagateError that is not about the form of the input (a signature,
   * key or proof that does not verify) becomes a failed check and `undefined`; unreadable input
   * (InvalidInputError) and faults in Pentagate itself propagate.
   */
  attempt<T>(name: string, step: () => T, describe: (value: T) => string): T | undefined {
    let value: T;
    try {
      value = step();
    } catch (err) {
      if (err instanceof PentagateError && !(err instanceof InvalidInputError)) {
        this.fail(name, err.message);
        return undefined;
      }
      throw err;
    }
    this.pass(name, describe(value));
    return value;
  }

  /** True when every check so far passed. */
  get allPassed(): boolean {
    return this.#checks.every((c) => c.ok);
  }

  finish(atMs?: number): VerificationReport {
    const checks = [...this.#checks];
    const failures = checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    const report: VerificationReport = {
      valid: checks.length > 0 && failures.length === 0,
      subject: this.subject,
      checks,
      failures,
    };
    if (this.decision) report.decision = this.decision;
    if (atMs !== undefined) report.at = new Date(atMs).toISOString();
    return report;
  }
}
