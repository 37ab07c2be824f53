/**
 * Retiring one of the cloud's signing keys after a rotation (or a compromise): the key's `notAfter` in the
 * trust document (`GET /api/v1/keys`, audit kits) ends its validity, so a verifier refuses what it signs
 * after that time and still accepts what it signed before (shared/verifier: a key valid when it signed keeps
 * its signatures valid). The change and its `key` audit entry are one write. A server refuses to start with
 * a retired key (assertSigningKeysActive), so a forgotten old key file cannot keep signing, and a server
 * already running with it stops signing with it within a second (signing-key-watch.ts).
 */
import { InvalidInputError } from '@pentagate/protocol';
import { AuditLog } from '../audit/audit-log.js';
import type { SigningKeyRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Retires the key `kid` at `notAfterMs`; returns the retired records and the audit index. */
export async function retireSigningKey(
  store: Store,
  kid: string,
  notAfterMs: number,
  nowMs: number = Date.now(),
): Promise<{ retired: SigningKeyRecord[]; auditIndex: number }> {
  const keys = (await store.listSigningKeys()).filter((k) => k.kid === kid);
  if (keys.length === 0) {
    throw new InvalidInputError(
      `signing key: no key ${JSON.stringify(kid)} is recorded (\`pentagate cloud keys list\` shows them)`,
    );
  }
  const retiredAt = keys.find((k) => k.notAfterMs !== null)?.notAfterMs;
  if (retiredAt !== undefined && retiredAt !== null) {
    throw new InvalidInputError(`signing key ${kid}: already retired at ${iso(retiredAt)}`);
  }
  const startMs = Math.max(...keys.map((k) => k.notBeforeMs));
  if (notAfterMs < startMs) {
    throw new InvalidInputError(
      `signing key ${kid}: the retirement time ${iso(notAfterMs)} is before the key's start, ${iso(startMs)}`,
    );
  }
  const record = await store.retireSigningKey(
    kid,
    notAfterMs,
    AuditLog.builder(
      {
        type: 'key',
        actor: 'system',
        data: { action: 'retire', kid, roles: keys.map((k) => k.role), notAfter: iso(notAfterMs) },
      },
      nowMs,
    ),
  );
  // listed as active a moment ago: another process retired it meanwhile
  if (!record) throw new InvalidInputError(`signing key ${kid}: retired by another process meanwhile`);
  return { retired: keys.map((k) => ({ ...k, notAfterMs })), auditIndex: record.index };
}

/** The first of `ownKids` the store records as retired (a `notAfter`, whenever it falls), if any. */
export function retiredOwnKey(
  recorded: readonly SigningKeyRecord[],
  ownKids: readonly string[],
): (SigningKeyRecord & { notAfterMs: number }) | undefined {
  return recorded.find((k): k is SigningKeyRecord & { notAfterMs: number } => {
    return ownKids.includes(k.kid) && k.notAfterMs !== null;
  });
}

/**
 * Refuses keys that are retired: the server would sign what every verifier refuses, and an audit kit's
 * checkpoint signed after its key's retirement is refused by `verify kit`. `use`: what the key was wanted for.
 * A server that is already running when its key is retired stops signing with it (signing-key-watch.ts).
 */
export function assertSigningKeysActive(
  recorded: readonly SigningKeyRecord[],
  ownKids: readonly string[],
  use = 'start the server',
): void {
  const k = retiredOwnKey(recorded, ownKids);
  if (!k) return;
  throw new InvalidInputError(
    `signing key ${k.kid} (${k.role}) was retired at ${iso(k.notAfterMs)} (\`pentagate cloud keys retire\`): ` +
      `${use} with the key that replaced it (--signing-key FILE)`,
  );
}
