/**
 * What every `pentagate verify …` subcommand shares: the --trust/--json/--at options, loading the trust
 * file, choosing the instant of time-dependent checks, and printing the report with the exit code
 * (0 valid, 1 invalid; unreadable input throws and `runCli` prints it and exits 2; with --require-approval,
 * 3 for a valid decision that is not an approval).
 */
import { TrustStore } from '@pentagate/crypto';
import {
  type CliIo,
  ExitCode,
  InvalidInputError,
  type OptionSpec,
  type ParsedCommandLine,
  requireOption,
} from '@pentagate/protocol';
import { parseInputJson, readInputBytes } from '../input-files.js';
import { describeOutcome } from '../approval.js';
import type { VerificationReport } from '../report.js';
import { parseAtOption } from '../time.js';

export const trustOption: OptionSpec = {
  type: 'string',
  valueName: 'TRUST',
  description: 'Trust file: the JSON of GET /api/v1/keys ({ "keys": [{ kid, alg, role, publicKey, … }] })',
};
export const jsonOption: OptionSpec = {
  type: 'boolean',
  description: 'Print the report as JSON { valid, subject, at, checks[], failures[] }',
};
export const atOption: OptionSpec = {
  type: 'string',
  valueName: 'ISO',
  description: 'Evaluate times at this RFC 3339 instant instead of reading the clock',
};

export const EXIT_CODES_HELP = [
  'Exit codes: 0 valid; 1 invalid (a check failed: bad signature, expired, proof does not match);',
  '2 bad usage or input that cannot be checked (missing file, malformed JSON, wrong types, wrong base64,',
  'more than 16 MiB, a key id the trust file does not list, a truncated or padded proof). In an audit kit a',
  'file that cannot be read or is over its limit (entries.jsonl: 128 MiB) is a failed check (1).',
].join('\n');

/**
 * `--require-approval`'s exit for a decision that verified and is no approval (a DENY, VETOED, REQUIRE_HUMAN or
 * HELD_FOR_VETO): 0 stays "valid", whatever was decided, for the scripts that check refusals' proofs too.
 */
export const NOT_AN_APPROVAL_EXIT = 3;

export const requireApprovalOption: OptionSpec = {
  type: 'boolean',
  description: `Exit ${NOT_AN_APPROVAL_EXIT} (not 0) when the decision verifies but is not an approval (ALLOW or APPROVED)`,
};

export const APPROVAL_HELP = [
  'A valid packet of a refusal is a valid refusal: the last line names the decision, e.g.',
  '`VALID signature — decision: DENY (not an approval)`, and --json has `decision: { outcome, approval }`.',
  `With --require-approval a valid decision that is not an approval exits ${NOT_AN_APPROVAL_EXIT}: only an approval exits 0.`,
].join('\n');

/** The first bytes of a PEM file (RFC 7468 §2): a key given where the trust file belongs. */
const PEM_START = '-----BEGIN ';

export async function loadTrustFile(path: string): Promise<TrustStore> {
  const bytes = await readInputBytes(path, 'trust file');
  if (new TextDecoder().decode(bytes.subarray(0, PEM_START.length)) === PEM_START) {
    throw new InvalidInputError(
      `trust file ${path}: this is a PEM key, not a trust file; a trust file is the JSON of GET /api/v1/keys, ` +
        'or { "keys": [ … ] } of the trustEntry that `pentagate keys public KEY --role ROLE --json` prints',
    );
  }
  return TrustStore.fromDocument(parseInputJson(bytes, path, 'trust file'), `trust file ${path}`);
}

export async function requireTrust(args: ParsedCommandLine): Promise<TrustStore> {
  return loadTrustFile(requireOption(args, 'trust'));
}

/** The instant for time-dependent checks and where it came from (always stated in the output). */
export interface CheckTime {
  atMs: number;
  source: 'option' | 'clock';
}

/**
 * `--at` when given; otherwise the clock, read once, when `useClock` (the output then says so);
 * otherwise no time at all.
 */
export function checkTime(args: ParsedCommandLine, useClock = true): CheckTime | undefined {
  const at = args.options.at;
  if (typeof at === 'string') return { atMs: parseAtOption(at), source: 'option' };
  return useClock ? { atMs: Date.now(), source: 'clock' } : undefined;
}

function renderHuman(report: VerificationReport, time: CheckTime | undefined): string {
  const lines = [report.subject];
  for (const c of report.checks) lines.push(`  ${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
  if (report.at) {
    lines.push(
      `Times checked at ${report.at} (${time?.source === 'option' ? 'from --at' : 'the current clock'}).`,
    );
  } else {
    lines.push('No time-dependent checks were evaluated against a clock (pass --at ISO to add them).');
  }
  const failed = report.checks.length - report.checks.filter((c) => c.ok).length;
  const passed = `${report.checks.length} ${report.checks.length === 1 ? 'check' : 'checks'} passed`;
  // the signature of a refusal verifies like an approval's: the outcome is said where VALID is
  const decided =
    report.decision && `VALID signature — decision: ${describeOutcome(report.decision.outcome)}`;
  lines.push(
    report.valid
      ? `${decided ?? 'VALID'} (${passed})`
      : `INVALID (${failed} of ${report.checks.length} checks failed)`,
  );
  return lines.join('\n');
}

/**
 * Prints the report (human or --json) and returns the exit code; `--require-approval` (when the command has
 * it) turns a valid decision that is not an approval into NOT_AN_APPROVAL_EXIT.
 */
export function emitReport(
  report: VerificationReport,
  args: ParsedCommandLine,
  io: CliIo,
  time: CheckTime | undefined,
): number {
  if (args.options.json) {
    const { valid, subject, decision, at, checks, failures } = report;
    const atSource = time && at ? { atSource: time.source } : {};
    const shown = { valid, subject, ...(decision ? { decision } : {}), ...(at ? { at } : {}), ...atSource };
    io.out(JSON.stringify({ ...shown, checks, failures }, null, 2));
  } else {
    io.out(renderHuman(report, time));
  }
  if (report.valid && args.options['require-approval'] === true && report.decision?.approval !== true)
    return NOT_AN_APPROVAL_EXIT;
  if (report.valid) return ExitCode.ok;
  return report.checks.some((c) => !c.ok && c.unreadable) ? ExitCode.usage : ExitCode.invalid;
}
