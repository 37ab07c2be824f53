/**
 * Shared pieces of the `pentagate cloud …` commands: where state lives by default, the `--db` and
 * `--state-dir` options, and opening the store and the signing key they name.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError, type OptionSpec, type ParsedCommandLine } from '@pentagate/protocol';
import { DEFAULT_LOG_ORIGIN } from '../app/build-app.js';
import { loadSigningSeed, type SigningSeed } from '../keys/signing-key-file.js';
import { openStore, sqlitePathOf } from '../store/open-store.js';
import type { Store } from '../store/store.js';

/** `$PENTAGATE_STATE_DIR`, else `.pentagate/cloud` under the working directory. */
export function defaultStateDir(): string {
  return process.env.PENTAGATE_STATE_DIR ?? join('.pentagate', 'cloud');
}

export const STATE_OPTIONS: Record<string, OptionSpec> = {
  db: {
    type: 'string',
    valueName: 'sqlite:PATH|postgres://…',
    description: 'the store (default sqlite:<state-dir>/cloud.db)',
  },
  'state-dir': {
    type: 'string',
    valueName: 'DIR',
    description:
      'where the default database and generated signing key live (default $PENTAGATE_STATE_DIR or .pentagate/cloud)',
  },
};

export const KEY_OPTIONS: Record<string, OptionSpec> = {
  'signing-key': {
    type: 'string',
    valueName: 'FILE',
    description:
      'Ed25519 key (PEM PKCS#8 or JWK); default <state-dir>/signing-key.pem, generated 0600 on first use',
  },
  'log-origin': {
    type: 'string',
    valueName: 'NAME',
    description: `the audit log origin in checkpoints (default ${DEFAULT_LOG_ORIGIN})`,
  },
};

export const JSON_OPTION: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print JSON on stdout' },
};

function stringOption(args: ParsedCommandLine, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function stateDirOf(args: ParsedCommandLine): string {
  return stringOption(args, 'state-dir') ?? defaultStateDir();
}

export function dbOf(args: ParsedCommandLine): string {
  return stringOption(args, 'db') ?? `sqlite:${join(stateDirOf(args), 'cloud.db')}`;
}

export function openStoreOf(args: ParsedCommandLine): Promise<Store> {
  return openStore(dbOf(args));
}

/** `generate: false` for commands that only read: a missing default key is refused, not created. */
export function signingSeedOf(
  args: ParsedCommandLine,
  options: { generate?: boolean } = {},
): Promise<SigningSeed> {
  const keyFile = stringOption(args, 'signing-key');
  return loadSigningSeed({ ...(keyFile ? { keyFile } : {}), stateDir: stateDirOf(args), ...options });
}

/**
 * For commands that only read the store: an embedded database file that does not exist is refused before
 * anything is opened, since opening it would create it (and its folder). A PostgreSQL store is opened
 * as named; the command's own checks say when it holds nothing yet.
 */
export function requireExistingStore(args: ParsedCommandLine, whatIsMissing: string): void {
  const path = sqlitePathOf(dbOf(args));
  if (path !== undefined && path !== ':memory:' && !existsSync(path)) {
    throw new InvalidInputError(`${whatIsMissing} (no database at ${path})`);
  }
}

export function logOriginOf(args: ParsedCommandLine): string {
  return stringOption(args, 'log-origin') ?? DEFAULT_LOG_ORIGIN;
}

export { stringOption };

/** Runs `fn` with the store named by the options, closing it afterwards whatever happens. */
export async function withStore<T>(args: ParsedCommandLine, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStoreOf(args);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
