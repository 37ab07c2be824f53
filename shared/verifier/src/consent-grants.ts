/**
 * Consents relayed through the cloud, checked offline: a `consent.grant` or `consent.deny` entry carries the
 * operator's token (`data.token`, the DSSE envelope the edge received), and the log itself says which key each
 * operator had enrolled (`operator.key` entries, enrol and retire, committed under the same signed
 * checkpoint). So an auditor can show that every released move was consented to by the operator the entry
 * names, with the key the log enrolled for them and had not retired, for that intent (the entry's
 * `subjectDigest`), robot, scope and decision — not merely that the cloud says so.
 *
 * Entries written before the cloud recorded tokens carry none; they are counted and named, not failed.
 * Single use cannot be shown from a file (consent-token.ts); the edge's spent-nonce record covers it.
 */
import { TrustStore, dsseVerifyStatement } from '@pentagate/crypto';
import {
  type AuditEntry,
  ConsentStatementSchema,
  PAYLOAD_TYPES,
  PentagateError,
  consentDecisionOf,
} from '@pentagate/protocol';
import type { ReportBuilder } from './report.js';

/** An operator key as the log enrolled it; `retiredAt` is the index of its retirement entry. */
interface EnrolledKey {
  operatorId: string;
  publicKey: string;
  retiredAt?: number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Reads a kit's entries one by one (audit-kit.ts streams them), then reports one check. */
export class ConsentGrantsCheck {
  /** By tenant and kid. */
  readonly #keys = new Map<string, EnrolledKey>();
  #verified = 0;
  #withoutToken = 0;
  #failed = 0;
  readonly #shown: string[] = [];

  add(entry: AuditEntry): void {
    if (entry.type === 'operator.key') this.#keyEntry(entry);
    else if (entry.type === 'consent.grant' || entry.type === 'consent.deny') this.#consentEntry(entry);
  }

  #keyEntry(entry: AuditEntry): void {
    const { action, operatorId, kid, publicKey } = entry.data;
    const at = `${entry.tenantId ?? ''}\u0000${text(kid)}`;
    if (action === 'enroll' && text(operatorId) && text(kid) && text(publicKey)) {
      this.#keys.set(at, { operatorId: operatorId as string, publicKey: publicKey as string });
    } else if (action === 'retire') {
      const key = this.#keys.get(at);
      if (key && key.retiredAt === undefined) key.retiredAt = entry.index;
    }
  }

  #consentEntry(entry: AuditEntry): void {
    const token = entry.data.token;
    if (token === undefined) {
      this.#withoutToken++;
      return;
    }
    const problem = this.#problem(entry, token);
    if (!problem) {
      this.#verified++;
      return;
    }
    this.#failed++;
    if (this.#shown.length < 5) this.#shown.push(`entry ${entry.index} (${entry.type}): ${problem}`);
  }

  #problem(entry: AuditEntry, token: unknown): string | undefined {
    const kid = text(entry.data.kid);
    const key = this.#keys.get(`${entry.tenantId ?? ''}\u0000${kid}`);
    if (!kid || !key) return `key ${kid ?? '(none)'} was never enrolled earlier in this log`;
    if (key.retiredAt !== undefined)
      return `key ${kid} was retired at entry ${key.retiredAt}, before this one`;
    if (key.operatorId !== entry.actor) {
      return `key ${kid} is enrolled for operator ${key.operatorId}, the entry names ${entry.actor}`;
    }
    const trust = TrustStore.fromDocument({
      keys: [{ kid, alg: 'Ed25519', role: 'operator', publicKey: key.publicKey, name: key.operatorId }],
    });
    let statement: ReturnType<typeof dsseVerifyStatement<typeof ConsentStatementSchema>>['statement'];
    try {
      ({ statement } = dsseVerifyStatement(token, trust, ConsentStatementSchema, {
        role: 'operator',
        payloadType: PAYLOAD_TYPES.consent,
      }));
    } catch (err) {
      if (err instanceof PentagateError) return `the token does not verify: ${err.message}`;
      throw err;
    }
    const expected: [string, unknown, unknown][] = [
      ['operatorId', statement.operatorId, entry.actor],
      ['intentDigest', statement.intentDigest, entry.subjectDigest],
      ['robotId', statement.robotId, entry.data.robotId],
      ['scope', statement.scope, entry.data.scope],
      ['decision', consentDecisionOf(statement), entry.type === 'consent.grant' ? 'grant' : 'deny'],
    ];
    const differ = expected.filter(([, signed, recorded]) => signed !== recorded);
    if (differ.length === 0) return undefined;
    return differ
      .map(
        ([field, signed, recorded]) =>
          `the token signs ${field} ${String(signed)}, the entry says ${String(recorded)}`,
      )
      .join('; ');
  }

  finish(report: ReportBuilder): void {
    const total = this.#verified + this.#failed + this.#withoutToken;
    if (total === 0) return;
    const more = this.#failed - this.#shown.length;
    const without =
      this.#withoutToken === 0
        ? ''
        : `; ${this.#withoutToken} written before tokens were recorded carry none`;
    report.check(
      'consent tokens',
      this.#failed === 0,
      `${this.#verified} consent tokens verify with the operator keys this log enrolled${without}`,
      `${this.#failed} of ${total - this.#withoutToken} consent tokens do not match their entries: ${this.#shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    );
  }
}
