/**
 * Where the server's Ed25519 seed comes from: `--signing-key FILE` (PEM PKCS#8 or JWK, read as given), or
 * `<stateDir>/signing-key.pem`, generated with mode 0600 on first start and read on every later start.
 * Either way a key file that group or others may read is refused (`assertOwnerOnlyKeyFile`), as the edge
 * refuses its HMAC and sensor keys: whoever can read it signs approvals and checkpoints as this cloud.
 */
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assertOwnerOnlyKeyFile, readEd25519KeyFile, writeEd25519KeyFile } from '@pentagate/crypto';
import { InvalidInputError } from '@pentagate/protocol';

export interface SigningSeed {
  seed: Uint8Array;
  path: string;
  /** True when this start generated the key. */
  generated: boolean;
}

export const DEFAULT_SIGNING_KEY_FILE = 'signing-key.pem';

/**
 * `generate: false` (a command that only reads, like the audit export): a missing default key is an error,
 * not a new key written into the state directory.
 */
export async function loadSigningSeed(options: {
  keyFile?: string;
  stateDir: string;
  generate?: boolean;
}): Promise<SigningSeed> {
  if (options.keyFile) {
    await assertOwnerOnlyKeyFile(options.keyFile, 'signing key');
    const { seed } = await readEd25519KeyFile(options.keyFile);
    return { seed, path: options.keyFile, generated: false };
  }
  const path = join(options.stateDir, DEFAULT_SIGNING_KEY_FILE);
  let exists = true;
  try {
    await access(path);
  } catch {
    exists = false;
  }
  if (!exists && options.generate === false) {
    throw new InvalidInputError(
      `signing key: ${path} does not exist; give the key the log was served with (--signing-key FILE, or the --state-dir \`serve\` used)`,
    );
  }
  if (!exists) {
    await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
    await writeEd25519KeyFile(path);
  }
  await assertOwnerOnlyKeyFile(path, 'signing key');
  const { seed } = await readEd25519KeyFile(path);
  return { seed, path, generated: !exists };
}
