/**
 * `pentagate cloud keys list|retire`: the cloud's signing keys (public halves and validity, as the trust
 * document publishes them) and the end of an old key's validity after a rotation.
 */
import { type Command, parseAtOption } from '@pentagate/protocol';
import { retireSigningKey } from '../keys/retire-signing-key.js';
import { DEFAULT_SIGNING_KEY_CHECK_MS } from '../keys/signing-key-watch.js';
import { JSON_OPTION, STATE_OPTIONS, withStore } from './state.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const keysListCommand: Command = {
  path: ['cloud', 'keys', 'list'],
  summary: "List the cloud's signing keys (kid, role, validity)",
  usage: '[--db …] [--json]',
  description:
    'Lists every proof and checkpoint key the cloud has signed with: kid, role, public key and validity\n' +
    '(notAfter once retired). The same keys as GET /api/v1/keys. Exit codes: 0 listed, 2 bad usage or store.',
  options: { ...STATE_OPTIONS, ...JSON_OPTION },
  async run(args, io) {
    const keys = await withStore(args, (store) => store.listSigningKeys());
    const rows = keys.map((k) => ({
      kid: k.kid,
      role: k.role,
      publicKey: k.publicKey,
      notBefore: iso(k.notBeforeMs),
      notAfter: iso(k.notAfterMs),
    }));
    if (args.options.json) io.out(JSON.stringify({ keys: rows }));
    else {
      for (const r of rows)
        io.out(
          `${r.kid}  ${r.role.padEnd(10)}  from ${r.notBefore}  ${r.notAfter ? `retired ${r.notAfter}` : 'active'}`,
        );
      if (rows.length === 0) io.out('(no keys: the server records its keys when it first starts)');
    }
    return 0;
  },
};

/**
 * How far ahead of now a retirement takes effect by default: a running server reads the retirement and stops
 * signing within DEFAULT_SIGNING_KEY_CHECK_MS (signing-key-watch.ts), so everything it signed is inside the
 * key's validity. At "now", signatures made in that second fell after notAfter, and an append-only log holding
 * them never verified again (outside review: `verify kit` refused 6 envelopes for good).
 */
export const RETIREMENT_GRACE_MS = 5 * DEFAULT_SIGNING_KEY_CHECK_MS;

export const keysRetireCommand: Command = {
  path: ['cloud', 'keys', 'retire'],
  summary: 'End the validity of an old signing key after a rotation',
  usage: 'KID [--at ISO] [--db …] [--json]',
  description:
    "Sets the key's notAfter (default 5 s from now) in the trust document, in one audited change: verifiers refuse\n" +
    'what the key signs after that time and keep accepting what it signed before. Rotate first: start the\n' +
    'servers with the new key (--signing-key FILE), then retire the old kids (`pentagate cloud keys list`;\n' +
    'one seed has a proof and a checkpoint key). A server refuses to start with a retired key, and one\n' +
    'already running with it stops signing with it within a second (503 SIGNING_KEY_RETIRED to what needs a\n' +
    'signature), whatever --at says: the default leaves it those seconds, so nothing it signed falls after\n' +
    'its notAfter (an audit kit holding such a signature would never verify). A retirement is final.\n' +
    'Exit codes: 0 retired, 2 unknown or already\n' +
    "retired key, a time before the key's start, bad usage or store.",
  options: {
    at: {
      type: 'string',
      valueName: 'ISO',
      description: 'when the validity ends, RFC 3339 (default 5 s from now)',
    },
    ...STATE_OPTIONS,
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run(args, io) {
    const kid = args.positionals[0]!;
    const at = args.options.at;
    const notAfterMs = typeof at === 'string' ? parseAtOption(at) : Date.now() + RETIREMENT_GRACE_MS;
    const { retired, auditIndex } = await withStore(args, (store) =>
      retireSigningKey(store, kid, notAfterMs),
    );
    if (args.options.json) {
      io.out(
        JSON.stringify({ kid, roles: retired.map((k) => k.role), notAfter: iso(notAfterMs), auditIndex }),
      );
    } else io.out(`retired ${kid} (${retired.map((k) => k.role).join(', ')}) at ${iso(notAfterMs)}`);
    // The store records the retirement; a server already running with this key reads it within a second
    // (signing-key-watch.ts) and signs nothing more with it.
    io.err(
      `note: a server running with ${kid} stops signing with it within a second and answers what needs a ` +
        'signature with 503 SIGNING_KEY_RETIRED: restart every server with the key that replaced it',
    );
    return 0;
  },
};
