/**
 * Signed checkpoints of the audit log (C2SP tlog-checkpoint in a C2SP signed note, ARCHITECTURE.md §5): the note
 * carries a signature by a trusted key of role 'checkpoint' whose `name` is the note's signer name.
 */
import { type Checkpoint, type TrustStore, verifyCheckpoint } from '@pentagate/crypto';
import { PentagateError, type TrustedKey, toBase64 } from '@pentagate/protocol';
import { ReportBuilder, type VerificationReport } from './report.js';

export interface CheckpointCheckOptions {
  /** When given, the checkpoint key's validity window must cover this instant. */
  atMs?: number;
}

export const describeCheckpoint = (cp: Checkpoint): string =>
  `origin ${JSON.stringify(cp.origin)}, size ${cp.size}, root ${toBase64(cp.rootHash)}`;

export type SignedCheckpoint = Checkpoint & { keyid: string };

/**
 * The checkpoint-signature step, shared by every artifact that carries a checkpoint.
 *
 * A checkpoint carries no time (C2SP tlog-checkpoint), which decides how its key's validity window is read:
 * - a key not yet valid at the time checked, but valid since and never retired, signed the checkpoint
 *   later: a later checkpoint still commits to every entry before it (a proof packet fetched again after a
 *   key rotation carries one), so it passes, and the report says when its key began;
 * - a retired key's checkpoint passes at a time before the retirement, but nothing in a bare checkpoint
 *   shows it was signed before then, so the report says so; a kit dates it by its entries
 *   (checkpoint-key-retirement.ts).
 */
export function checkCheckpointSignature(
  report: ReportBuilder,
  note: string,
  trust: TrustStore,
  options: CheckpointCheckOptions,
  name = 'checkpoint signature',
): SignedCheckpoint | undefined {
  const { atMs } = options;
  let signedLater = false;
  return report.attempt(
    name,
    () => {
      try {
        return verifyCheckpoint(note, trust, atMs === undefined ? {} : { atMs });
      } catch (err) {
        const untimed =
          atMs !== undefined && err instanceof PentagateError ? withoutTime(note, trust) : undefined;
        if (untimed === undefined) throw err;
        const key = trustedKey(trust, untimed.keyid);
        if (
          key?.notBefore !== undefined &&
          key.notAfter === undefined &&
          Date.parse(key.notBefore) > (atMs as number)
        ) {
          signedLater = true;
          return untimed;
        }
        // Signed by a key retired before the time checked. Say what to do instead of only "expired".
        throw new PentagateError(
          (err as PentagateError).code,
          `${(err as Error).message}: a checkpoint carries no time, so one signed by a retired key is refused after the ` +
            'retirement. Fetch the proof packet again (the cloud signs its checkpoint with the current key), ' +
            're-export the audit kit, or check as of a time before the key was retired (--at)',
        );
      }
    },
    (cp) => {
      const key = trustedKey(trust, cp.keyid);
      const when = signedLater
        ? `; its key ${cp.keyid} is valid from ${key?.notBefore}, after the time checked: the checkpoint was signed later, and still commits to every entry before it`
        : key?.notAfter !== undefined
          ? `; its key ${cp.keyid} is retired at ${key.notAfter}, and a checkpoint carries no time: this shows the key signed it, not that it did so before the retirement`
          : '';
      return `signed by a trusted checkpoint key: ${describeCheckpoint(cp)}${when}`;
    },
  );
}

function trustedKey(trust: TrustStore, kid: string): TrustedKey | undefined {
  return trust.keys().find((k) => k.kid === kid);
}

function withoutTime(note: string, trust: TrustStore): SignedCheckpoint | undefined {
  try {
    return verifyCheckpoint(note, trust, {});
  } catch {
    return undefined;
  }
}

/** `pentagate verify checkpoint`: one signed note against the trust file. */
export function verifyCheckpointNote(
  note: string,
  trust: TrustStore,
  options: CheckpointCheckOptions = {},
): VerificationReport {
  const report = new ReportBuilder('checkpoint');
  const cp = checkCheckpointSignature(report, note, trust, options);
  if (cp) report.subject = `checkpoint of ${cp.origin} at size ${cp.size}`;
  return report.finish(options.atMs);
}
