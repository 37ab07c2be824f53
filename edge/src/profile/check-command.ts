/**
 * `pentagate edge check --profile FILE [--json]`: validates a robot profile and lists every problem with its
 * path. Exit 0 when the profile is valid, 1 when it has problems, 2 when the file cannot be read or the
 * command line is wrong.
 */
import { dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { cannotRead, type Command, ExitCode, formatProblem, requireOption } from '@pentagate/protocol';
import { compileProfile } from './compiled-profile.js';
import { MAX_PROFILE_BYTES, checkRobotProfileText } from './load-profile.js';
import { profileWarnings } from './profile-warnings.js';

export const edgeCheckCommand: Command = {
  path: ['edge', 'check'],
  summary: 'Check a robot profile and list every problem with its path',
  usage: '--profile FILE [--json]',
  description: [
    'Reads a robot profile (YAML or JSON), checks it against the profile schema and the cross-field rules',
    '(ordered limits, unique names, sources that exist, zones no thinner than keepOut.minZoneThicknessM,',
    'the trust keys each check needs), and prints every problem as `path: what was expected, what came`.',
    'A valid profile prints its robot id, joint and zone counts and its digest (the cfgDigest signed into',
    'every motor command), then warnings that do not invalidate it: e.g. with speed and separation monitoring',
    'on, how fast the joint limits let the flange move and the separation distance (ISO/TS 15066) that needs.',
    '',
    'Exit codes: 0 valid; 1 the profile has problems; 2 the file cannot be read or bad usage.',
    '',
    'Example: pentagate edge check --profile edge/profiles/ur5e-arm.yaml',
  ].join('\n'),
  options: {
    profile: { type: 'string', description: 'The robot profile file (YAML or JSON)', valueName: 'FILE' },
    json: { type: 'boolean', description: 'Print one JSON object { valid, problems, robotId?, cfgDigest? }' },
  },
  async run(args, io) {
    const path = requireOption(args, 'profile');
    let text: string;
    try {
      const bytes = readFileSync(path);
      if (bytes.length > MAX_PROFILE_BYTES) {
        throw new Error(`expected at most ${MAX_PROFILE_BYTES} bytes, got ${bytes.length}`);
      }
      text = bytes.toString('utf8');
    } catch (err) {
      io.err(`pentagate edge check: ${cannotRead(path, err)}`);
      return ExitCode.usage;
    }
    const check = checkRobotProfileText(text, dirname(resolve(path)));
    const profile = check.profile;
    const warnings = profile ? profileWarnings(profile) : [];
    if (args.options.json) {
      io.out(
        JSON.stringify({
          valid: profile !== undefined,
          problems: check.problems,
          warnings,
          ...(profile ? { robotId: profile.robotId, cfgDigest: compileProfile(profile).cfgDigest } : {}),
        }),
      );
    } else if (profile) {
      io.out(
        `${path}: valid ${profile.kind} profile for ${profile.robotId}: ${profile.joints.length} joints, ` +
          `${profile.keepOut.zones.length} keep-out zones, ${profile.sources.length} sources; cfgDigest ${compileProfile(profile).cfgDigest}`,
      );
      for (const w of warnings) io.out(`  warning: ${formatProblem(w)}`);
    } else {
      io.out(`${path}: ${check.problems.length} problem(s)`);
      for (const p of check.problems) io.out(`  ${formatProblem(p)}`);
    }
    return profile ? ExitCode.ok : ExitCode.invalid;
  },
};
