/**
 * `pentagate edge replay`: tests a robot profile against a rosbag2 recording before it goes near the robot.
 * The recording is fed through the same message mapping and the same EdgeGate the live edge runs, in recorded
 * time; the summary says what the gates would have done.
 */
import { randomBytes } from 'node:crypto';
import { TrustStore, hmacKeyId, readHmacKeyFile } from '@pentagate/crypto';
import {
  type Command,
  ExitCode,
  type ParsedCommandLine,
  UsageError,
  oneLine,
  requireOption,
} from '@pentagate/protocol';
import { EdgeGate } from '../trap/edge-gate.js';
import { MemorySequenceStore } from '../trap/sequence-store.js';
import { readSensorKeys } from '../telemetry/sensor-key-files.js';
import { replayRecording } from '../mcap/replay.js';
import { renderReplaySummary } from '../mcap/replay-summary.js';
import { VerdictRecorder } from '../mcap/verdict-recorder.js';
import { readRoleOverridesFile } from './ros-bindings-file.js';
import { loadRobotProfile } from '../profile/load-profile.js';
import { profileWarnings } from '../profile/profile-warnings.js';
import { optionalString, parseDurationMs, readJsonFile, stringList } from './cli-values.js';
import { gateDocumentOptions } from './gate-document-options.js';

/** The recording, from --bag or the one positional argument (not both: which one was meant?). */
function bagArgument(args: ParsedCommandLine): string {
  const [positional] = args.positionals;
  const option = optionalString(args, 'bag');
  if (positional !== undefined && option !== undefined) {
    throw new UsageError(`give the recording once: --bag ${option} or ${positional}, not both`);
  }
  const bag = positional ?? option;
  if (bag === undefined)
    throw new UsageError('--bag is required (or give the recording as the argument)', { showUsage: true });
  return bag;
}

export const edgeReplayCommand: Command = {
  path: ['edge', 'replay'],
  summary: 'Replay a rosbag2 recording (MCAP or sqlite3) through the gates and summarize what they decide',
  usage:
    '--profile FILE (--bag PATH | PATH) [--json] [--record OUT.mcap] [--firmware FILE]... [--calibration FILE]... ' +
    '[--hmac-key FILE] [--sensor-key FILE]... [--bindings FILE] [--ignore-stamps] [--monitor-period 20ms]',
  description: [
    'Reads a rosbag2 recording — an MCAP file (uncompressed, zstd or lz4 chunks), a sqlite3 .db3 file (old',
    'two-table bags, schema 3 and 4), or a bag directory (metadata.yaml, or split files without one) — with CDR',
    'messages (definitions from the file, standard definitions bundled when it has none; per-message zstd',
    'compression as rosbag2 writes it is undone) and feeds it through the five gates in recorded time:',
    'each message is mapped exactly as the live ROS 2 transport maps it, and the gates see its log time as "now".',
    'Topics bind to the profile by topics.ros2 roles, else by their last name segment (/joint_states → source',
    'joint_states), else to the only source of their kind; JointTrajectory, Twist, TwistStamped and',
    'AckermannDriveStamped are intents (only from the topic topics.ros2 names for intents when it names one, as',
    "live: another robot's cmd_vel in the bag is not judged as this one's); Odometry and",
    'PoseWithCovarianceStamped (a localizer: AMCL) feed a pose',
    'source, PointCloud2 a proximity source; an Imu is checked and counted, not gated. The types read:',
    'JointState, LaserScan, Range, PointCloud2, PoseStamped, PoseWithCovarianceStamped, Odometry, BatteryState,',
    'String (firmware reports, consent), Imu, and the intent types above; a topic of any',
    'other type (/tf, images, service events, actions) is skipped undecoded, one line per topic saying why.',
    '--bindings FILE (YAML) overrides per role: type, source, sector',
    '{ minAngleRad, maxAngleRad }, heightBand { minZM, maxZM }, minRangeM, wheelbaseM (Ackermann), frameId,',
    'moveClass, safetyCritical, twistDurationMs. PROVENANCE needs the manifests and certificates the robot',
    'runs with (--firmware, --calibration). Commands are signed with --hmac-key, or with a throwaway key when omitted;',
    'sources the profile marks authenticated need their sensor keys (--sensor-key, as for edge run).',
    '',
    "The edge's own recordings (`edge run --record`) replay too: their /pentagate/input channel (every inbound",
    'message as it arrived) is fed to the gates at its recorded time; the recorded verdicts, evidence, commands',
    'and diagnostics are counted (recordedOutputs), not fed. A file of decisions only (`edge replay --record`)',
    'has no inputs and is refused (exit 2). Try it on the shipped sample:',
    '  npx pentagate edge replay --profile edge/samples/arm-cell/profile.json --bag edge/samples/arm-cell/cell.mcap \\',
    '    --firmware edge/samples/arm-cell/fw.manifest.json',
    '',
    'Summary fields (--json prints them as one object):',
    '  recording, robotId         the file and the profile replayed',
    '  error                      why the file could not be read to its end (truncated, corrupt, not MCAP);',
    '                             everything before that point was replayed',
    '  warnings                   what was wrong with a recording that was still read (a split file missing,',
    '                             a topic the profile names that cannot be read); WARNING lines of the text',
    '                             summary, on stderr with --json or when no summary is printed',
    '  firstMessageMs, lastMessageMs, durationMs   log-time span, Unix ms',
    '  messages.total, messages.byTopic[]          per topic and type: count and what it fed',
    '                             (telemetry:<source>, intent, consent, observed, not gated: <why> (an IMU),',
    '                             unbound: <why>, or skipped: <why>; <what to do> for a type no gate reads)',
    '  skipped.byReason           messages not fed to the gates: unsupported-type (a type no gate reads),',
    '                             duplicate-message (the same bytes on a topic at the same log time again:',
    '                             a merged bag; fed once),',
    '                             unknown-encoding, missing-schema, bad-schema, decode-failed,',
    '                             unsupported-encapsulation (XCDR2 or a parameter list: only classic CDR is read),',
    '                             unbound-topic, wrong-type, missing-field, non-finite, malformed,',
    '                             no-valid-return (a scan or cloud with no valid return), unstamped (zero stamp),',
    '                             stale-stamp, future-stamp, foreign-clock (a stamp over an hour off: another',
    "                             clock), stamp-backwards, wrong-frame (header.frame_id is not the role's",
    '                             frameId), not-gated (read and checked, used by no gate: IMU);',
    '                             skipped.examples one detail each',
    "  telemetry.accepted, telemetry.rejected      frames the gates' telemetry store took or refused, by reason",
    '  telemetry.ignoredJoints    joint names the joint states carry and the profile does not (a gripper):',
    "                             ignored; the profile's joints are checked by name",
    '  intents, consents          how many reached trapAndSign and submitConsent',
    '  verdicts.byOutcome         signed, vetoed, awaiting-consent, stopped, rejected-input, consent-expired',
    '  verdicts.byVertex          per vertex (INVARIANT, ECONOMY, RISK, PROVENANCE, CONSENT): gate results',
    '                             passed and failed',
    '  commands.motion, commands.stop              signed motion commands and signed STOPs',
    '  firstVeto                  the first vetoed, stopped or consent-expired verdict: atMs, offsetMs from the',
    '                             first message, outcome, intentId, first violation',
    '  firstFailureByVertex       the same, per vertex, for its first failing gate result',
    "  logTimeReordered           messages stored after later ones (a recorder's threads interleave): replayed",
    '                             in log-time order, as ros2 bag play plays them',
    '  logTimeBackwards           messages stored over 1 s of log time after later ones: replayed at the latest',
    '                             time seen (a warning)',
    "  recordedOutputs            the edge's own recorded decisions in the file (counted, not fed)",
    '  measured.breaches[]        what the measured data shows by itself, intent or not: effort over a torque',
    '                             limit, a joint outside its limits, a joint frame or the base in a keep-out',
    '                             zone, the base faster than its limits (Odometry), a return inside the',
    '                             operating radius, low battery voltage; each once',
    '                             when it begins (atMs, check, subject, value, limit, detail)',
    '  measured.framesInBreach    frames found in breach, per check',
    '  measured.notChecked        checks that could not run for lack of data, per check: frames and why (a',
    '                             JointState with an empty effort array: positions are still judged; a pose',
    '                             without a measured velocity, PoseStamped or a localizer pose: base-speed)',
    '  measured.sourcesWithoutFrames  profile sources that gave no frame at all (no topic feeds them, or every',
    '                             message was skipped or refused): their checks did not run, whatever',
    '                             "0 breaches" says',
    '  recordedTo                 the --record file',
    '',
    '--record OUT.mcap writes every verdict (/pentagate/verdict, JSON), the frames it was decided on',
    '(/pentagate/evidence), every signed command (/pentagate/command) and a DiagnosticArray per verdict',
    '(/pentagate/diagnostics) at recorded time, to open in Foxglove beside the original recording.',
    '--ignore-stamps skips the header.stamp checks, for recordings stamped in simulation time (use_sim_time).',
    '',
    'The recording may also be given as the one argument, as `ros2 bag info PATH` takes it.',
    'Exit codes: 0 the recording was replayed to its end; 2 bad usage, an unreadable profile, or a recording',
    'that could not be read to its end (the summary of what was read is still printed; none when nothing was).',
    '',
    'Example: pentagate edge replay --profile edge/profiles/ur5e-arm.yaml --bag rosbag2_2026_11_22/ \\',
    '           --firmware fw.manifest.json --calibration lidar-front.cal.json --record verdicts.mcap',
  ].join('\n'),
  options: {
    profile: { type: 'string', description: 'Robot profile (YAML or JSON)', valueName: 'FILE' },
    bag: {
      type: 'string',
      description: 'rosbag2 recording: an .mcap or .db3 file, or a bag directory',
      valueName: 'PATH',
    },
    json: { type: 'boolean', description: 'Print the summary as JSON' },
    record: {
      type: 'string',
      description: 'Write verdicts, evidence and commands to a new MCAP file',
      valueName: 'OUT.mcap',
    },
    ...gateDocumentOptions,
    'hmac-key': {
      type: 'string',
      description: 'HMAC command key (JWK); default a throwaway key',
      valueName: 'FILE',
    },
    bindings: { type: 'string', description: 'Per-role ROS binding overrides (YAML)', valueName: 'FILE' },
    'ignore-stamps': { type: 'boolean', description: 'Do not check header.stamp against log time' },
    'monitor-period': {
      type: 'string',
      description: "The node's monitor period (default 20ms)",
      valueName: 'DURATION',
    },
  },
  positionals: [0, 1],
  async run(args, io) {
    const profilePath = requireOption(args, 'profile');
    const bagPath = bagArgument(args);
    const profile = loadRobotProfile(profilePath);
    const trust = TrustStore.fromDocument(profile.trust.document ?? { keys: [] }, `trust of ${profilePath}`);
    const keyPath = optionalString(args, 'hmac-key');
    const hmacKey = keyPath ? await readHmacKeyFile(keyPath) : throwawayKey();
    const bindingsPath = optionalString(args, 'bindings');
    const overrides = bindingsPath ? await readRoleOverridesFile(bindingsPath, 'bindings') : {};
    const period = optionalString(args, 'monitor-period');
    const sensorKeys = await readSensorKeys(profile, stringList(args, 'sensor-key'));
    const gate = new EdgeGate({ profile, trust, hmacKey, sensorKeys, sequence: new MemorySequenceStore() });
    const manifests = await Promise.all(stringList(args, 'firmware').map((p) => readJsonFile(p, 'firmware')));
    const certificates = await Promise.all(
      stringList(args, 'calibration').map((p) => readJsonFile(p, 'calibration')),
    );
    const recordPath = optionalString(args, 'record');
    const recorder = recordPath ? await VerdictRecorder.create(recordPath) : undefined;
    // Provenance is checked at the recording's time, not today's: load it lazily at the first message's time.
    const loaded = { done: false };
    const report = (nowMs: number) => {
      if (loaded.done) return;
      loaded.done = true;
      const r = gate.loadProvenance(
        { firmwareManifests: manifests, calibrationCertificates: certificates },
        nowMs,
      );
      for (const x of r.rejected) io.err(`warning: ${x.kind} document #${x.index + 1} refused: ${x.reason}`);
    };
    const summary = await replayRecording({
      bagPath,
      profile,
      gate,
      overrides,
      onFirstMessage: report,
      ...(args.options['ignore-stamps'] ? { checkStamps: false } : {}),
      ...(period ? { monitorPeriodMs: parseDurationMs(period, 'monitor-period') } : {}),
      ...(recorder ? { recorder } : {}),
    });
    if (recorder) await recorder.close();
    // The summary (what was read before the error) goes to stdout; the error itself is the one stderr line. When
    // nothing was read (a missing, empty or unreadable recording) there is no summary: an empty one ("measured 0
    // breaches") would read like a clean recording.
    const nothingRead = summary.error !== undefined && summary.messages.total === 0;
    const text = !nothingRead && !args.options.json;
    if (!nothingRead) {
      io.out(args.options.json ? JSON.stringify(summary, null, 2) : renderReplaySummary(summary));
      // what `edge check` warns about changes what was signed (a proximity source without maxRangeM took a
      // reading in millimetres as metres): said beside the verdicts too (not when nothing was read: the error
      // is then the one line)
      for (const w of profileWarnings(profile)) io.err(`warning: profile ${w.path}: ${w.message}`);
    }
    // The text summary prints each warning (WARNING: …); echoed on stderr too, a terminal showed it twice. With
    // --json (read by a program) or no summary at all, stderr is where a person sees them.
    if (!text) for (const w of summary.warnings) io.err(`warning: ${oneLine(w)}`);
    if (summary.error) io.err(`pentagate edge replay: ${oneLine(summary.error)}`);
    return summary.error ? ExitCode.usage : ExitCode.ok;
  },
};

function throwawayKey(): { kid: string; key: Uint8Array } {
  const key = new Uint8Array(randomBytes(32));
  return { kid: hmacKeyId(key), key };
}
