/**
 * Signed checkpoints of the audit log (C2SP tlog-checkpoint in a C2SP signed note, ARCHITECTURE.md §5): the note
 * carries a signature by a trusted key of role 'checkpoint' whose `name` is the note's signer name.
 */
import { type Checkpoint, type TrustStore, verifyCheckpoint } from '@pentagate/crypto';
import { PentagateError, toBase64 } from '@pentagate/protocol';
import { ReportBuilder, type VerificationReport } from './report.js';

export interface CheckpointCheckOptions {
  /** When given, the checkpoint key's validity window must cover this instant. */
  atMs?: number;
}

export const describeCheckpoint = (cp: Checkpoint): string =>
  `origin ${JSON.stringify(cp.origin)}, size ${cp.size}, root ${toBase64(cp.rootHash)}`;

/** The checkpoint-signature step, shared by every artifact that carries a checkpoint. */
export function checkCheckpointSignature(
  report: ReportBuilder,
  note: string,
  trust: TrustStore,
  options: CheckpointCheckOptions,
  name = 'checkpoint signature',
): Checkpoint | undefined {
  const { atMs } = options;
  return report.attempt(
    name,
    () => {
      try {
        return verifyCheckpoint(note, trust, atMs === undefined ? {} : { atMs });
      } catch (err) {
        // A checkpoint carries no time, so one signed by a key retired since cannot be told from one its
        // holder signed after the retirement, and is refused. Say what to do instead of only "expired".
        if (atMs !== undefined && err instanceof PentagateError && verifiesWithoutTime(note, trust)) {
          throw new PentagateError(
            err.code,
            `${err.message}: a checkpoint carries no time, so one signed by a retired key is refused after the ` +
              'retirement. Fetch the proof packet again (the cloud signs its checkpoint with the current key), ' +
              're-export the audit kit, or check as of a time before the key was retired (--at)',
          );
        }
        throw err;
      }
    },
    (cp) => `signed by a trusted checkpoint key: ${describeCheckpoint(cp)}`,
  );
}

function verifiesWithoutTime(note: string, trust: TrustStore): boolean {
  try {
    verifyCheckpoint(note, trust, {});
    return true;
  } catch {
    return false;
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
