/**
 * Refuses a secret key file that group or others may read, as OpenSSH refuses an unprotected private key:
 * whoever can read the HMAC command key can forge motor commands the controller executes, whoever can read a
 * sensor's key can sign its frames, and whoever can read the cloud's signing key can sign approvals and
 * checkpoints every verifier accepts. Key files are written 0600 (`pentagate keys generate`); a copy made with `cp`
 * under the usual umask is 0644. POSIX modes only: on Windows, where the mode bits say nothing of who may read,
 * nothing is refused.
 */
import { stat } from 'node:fs/promises';
import { InvalidInputError } from '@pentagate/protocol';

export async function assertOwnerOnlyKeyFile(path: string, what: string): Promise<void> {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InvalidInputError(`${path}: cannot read the ${what} (${code ?? (err as Error).message})`);
  }
  if ((mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(4, '0');
    throw new InvalidInputError(
      `${path}: the ${what} is readable by group or others (mode ${octal}); whoever can read it holds the key: chmod 600 ${path}`,
    );
  }
}
