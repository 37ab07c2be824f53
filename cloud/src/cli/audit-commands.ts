/** `pentagate cloud audit export --out DIR`: the offline audit kit that `pentagate verify kit DIR` checks. */
import { type Command, InvalidInputError, requireOption } from '@pentagate/protocol';
import { exportAuditKit } from '../audit/kit-export.js';
import { assertSigningKeysActive } from '../keys/retire-signing-key.js';
import { serverKeysFromSeed } from '../keys/server-keys.js';
import {
  JSON_OPTION,
  KEY_OPTIONS,
  STATE_OPTIONS,
  logOriginOf,
  requireExistingStore,
  signingSeedOf,
  withStore,
} from './state.js';

const NO_AUDIT_LOG_YET =
  'this store has no audit log yet: `pentagate cloud serve` with the same --state-dir or --db starts one; export after it has run';

export const auditExportCommand: Command = {
  path: ['cloud', 'audit', 'export'],
  summary: 'Export the audit log as an offline audit kit',
  usage: '--out DIR [--db …] [--signing-key FILE] [--log-origin NAME] [--json]',
  description:
    'Writes manifest.json, checkpoint.note (signed now with the checkpoint key), entries.jsonl (every entry,\n' +
    'JCS, index order) and trust.json (the log keys) into DIR, which must be new or empty. Use the same\n' +
    '--signing-key and --log-origin as `serve`. Check it with `pentagate verify kit DIR`.\n' +
    'Nothing is created when it cannot export: no database, signing key or state directory.\n' +
    'Exit codes: 0 written, 2 bad usage, a non-empty DIR, a store no `serve` has used, a missing key, one\n' +
    'this log never used or one retired (`cloud keys retire`), or an unusable store.',
  options: {
    out: { type: 'string', valueName: 'DIR', description: 'the kit directory (created; must be empty)' },
    ...STATE_OPTIONS,
    ...KEY_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const outDir = requireOption(args, 'out');
    // Nothing is created by an export that cannot run: no database file, no signing key.
    requireExistingStore(args, NO_AUDIT_LOG_YET);
    const { seed } = await signingSeedOf(args, { generate: false });
    const keys = serverKeysFromSeed(seed, logOriginOf(args));
    const result = await withStore(args, async (store) => {
      const known = await store.listSigningKeys();
      // a state directory or --db that no `serve` has used yet: the key check below would blame the key
      if (known.length === 0) {
        throw new InvalidInputError(NO_AUDIT_LOG_YET);
      }
      if (
        !known.some(
          (k) => k.kid === keys.checkpoint.keyid && k.role === 'checkpoint' && k.name === keys.origin,
        )
      ) {
        throw new InvalidInputError(
          `signing key: expected the key and origin this log was served with, got checkpoint key ${keys.checkpoint.keyid} ` +
            `for origin ${JSON.stringify(keys.origin)}, which this log has never used`,
        );
      }
      assertSigningKeysActive(known, [keys.checkpoint.keyid], 'export the audit kit');
      return exportAuditKit(store, outDir, { origin: keys.origin, noteSigner: keys.note });
    });
    io.out(
      args.options.json
        ? JSON.stringify({ dir: result.dir, treeSize: result.treeSize, rootHash: result.rootHashHex })
        : `wrote audit kit of ${result.treeSize} entries to ${result.dir}`,
    );
    return 0;
  },
};
