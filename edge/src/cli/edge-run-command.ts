/** `pentagate edge run`: the edge node as a long-running process. */
import { type Command, ExitCode, requireOption, UsageError, untilStopRequest } from '@pentagate/protocol';
import type { BrokerUser } from '../broker/broker-users.js';
import type { MqttTlsOptions } from '../mqtt/mqtt-transport.js';
import { createEdgeLogger } from '../observability/logger.js';
import {
  optionalString,
  CLOUD_INSECURE_HTTP_OPTION,
  parseCloudUrl,
  parseMqttTarget,
  parsePort,
  readInputFile,
  readJsonFile,
  readSecretFile,
  stringList,
} from './cli-values.js';
import { gateDocumentOptions } from './gate-document-options.js';
import {
  DEFAULT_MAX_INTENTS_PER_SECOND,
  INTENT_BURST_SECONDS,
  MAX_INTENTS_PER_SECOND_LIMIT,
} from '../node/intent-rate-limit.js';
import { type EdgeRunOptions, startEdgeRun } from './edge-run.js';
import { parseTransports, type RosRunOptions } from './edge-run-transports.js';
import { readRoleOverridesFile } from './ros-bindings-file.js';
import { TRANSPORT_NAMES, type TransportName } from '../transport/combined-transport.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `--max-intents-per-second N`: a whole number 0–MAX_INTENTS_PER_SECOND_LIMIT (0 = the node's default). A
 * fraction, a sign or a unit is refused rather than read as something else.
 */
export function parseMaxIntentsPerSecond(text: string): number {
  const rate = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(rate >= 0 && rate <= MAX_INTENTS_PER_SECOND_LIMIT)) {
    throw new UsageError(
      `--max-intents-per-second: expected a whole number of intents a second, 0-${MAX_INTENTS_PER_SECOND_LIMIT} (0 = the default, ${DEFAULT_MAX_INTENTS_PER_SECOND}), got ${JSON.stringify(text)}`,
    );
  }
  return rate;
}

/** Turns the command line into EdgeRunOptions (reads every file up front: fail before starting). */
export async function edgeRunOptions(args: Parameters<Command['run']>[0]): Promise<EdgeRunOptions> {
  const mqtt = parseMqttTarget(requireOption(args, 'mqtt'));
  const transports = parseTransports(stringList(args, 'transport'));
  const commandsOn = optionalString(args, 'commands-on');
  if (commandsOn !== undefined && !(TRANSPORT_NAMES as readonly string[]).includes(commandsOn)) {
    throw new UsageError(
      `--commands-on: expected ${TRANSPORT_NAMES.join(', ')}, got ${JSON.stringify(commandsOn)}`,
    );
  }
  const serialPort = optionalString(args, 'serial-port');
  if (serialPort !== undefined && !transports.includes('serial'))
    throw new UsageError('--serial-port: only with --transport serial');
  const rosBindings = optionalString(args, 'ros-bindings');
  const ros: RosRunOptions = {
    ...(rosBindings !== undefined
      ? { overrides: await readRoleOverridesFile(rosBindings, 'ros-bindings') }
      : {}),
    ...(optionalString(args, 'ros-node-name') !== undefined
      ? { nodeName: optionalString(args, 'ros-node-name') as string }
      : {}),
    ...(optionalString(args, 'ros-namespace') !== undefined
      ? { namespace: optionalString(args, 'ros-namespace') as string }
      : {}),
    ...(args.options['ros-ignore-stamps'] ? { checkStamps: false } : {}),
  };
  const level = requireOption(args, 'log-level');
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(
      `--log-level: expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`,
    );
  }
  const passwordFile = optionalString(args, 'password-file');
  const usersFile = optionalString(args, 'broker-users');
  if (mqtt.kind === 'url' && usersFile)
    throw new UsageError('--broker-users: only with --mqtt embedded:PORT');
  if (mqtt.kind === 'embedded' && (optionalString(args, 'username') || passwordFile)) {
    throw new UsageError(
      '--username/--password-file: only with --mqtt mqtt://…; the embedded broker makes the edge its own credentials',
    );
  }
  const tls: MqttTlsOptions = {};
  for (const [option, field] of [
    ['tls-ca', 'ca'],
    ['tls-cert', 'cert'],
    ['tls-key', 'key'],
  ] as const) {
    const path = optionalString(args, option);
    if (path !== undefined) tls[field] = await readInputFile(path, option);
  }
  if (args.options['tls-insecure']) tls.rejectUnauthorized = false;
  const metricsPort = optionalString(args, 'metrics-port');
  // read as given: an empty value is refused, not taken for "absent"
  const intentRateText = args.options['max-intents-per-second'];
  const maxIntentsPerSecond =
    typeof intentRateText === 'string' ? parseMaxIntentsPerSecond(intentRateText) : undefined;
  const foxglovePort = optionalString(args, 'foxglove-port');
  const foxgloveHost = optionalString(args, 'foxglove-host');
  const cloudText = optionalString(args, 'cloud');
  const cloudUrl = cloudText === undefined ? undefined : parseCloudUrl(cloudText, args);
  const cloudKeyFile = optionalString(args, 'cloud-key-file');
  if ((cloudUrl === undefined) !== (cloudKeyFile === undefined)) {
    throw new UsageError(
      "--cloud and --cloud-key-file: give both (the cloud URL and the robot's edge key) or neither",
    );
  }
  let brokerUsers: BrokerUser[] | undefined;
  if (usersFile) {
    const users = await readJsonFile(usersFile, 'broker-users');
    if (!Array.isArray(users))
      throw new UsageError(`--broker-users: expected a JSON array of users in ${usersFile}`);
    brokerUsers = users as BrokerUser[];
  }
  const username = optionalString(args, 'username');
  const brokerHost = optionalString(args, 'broker-host');
  const manifests = await Promise.all(stringList(args, 'firmware').map((p) => readJsonFile(p, 'firmware')));
  const certificates = await Promise.all(
    stringList(args, 'calibration').map((p) => readJsonFile(p, 'calibration')),
  );
  return {
    profilePath: requireOption(args, 'profile'),
    hmacKeyPath: requireOption(args, 'hmac-key'),
    sensorKeyPaths: stringList(args, 'sensor-key'),
    mqtt,
    transports,
    ...(commandsOn !== undefined ? { commandsOn: commandsOn as TransportName } : {}),
    ros,
    ...(serialPort !== undefined ? { serial: { path: serialPort } } : {}),
    stateDir: requireOption(args, 'state-dir'),
    firmwareManifests: manifests,
    calibrationCertificates: certificates,
    ...(optionalString(args, 'record') !== undefined
      ? { recordPath: optionalString(args, 'record') as string }
      : {}),
    logger: createEdgeLogger({ level: level as (typeof LOG_LEVELS)[number] }),
    ...(brokerHost !== undefined ? { brokerHost } : {}),
    ...(brokerUsers !== undefined ? { brokerUsers } : {}),
    ...(username !== undefined ? { username } : {}),
    ...(passwordFile !== undefined ? { password: await readSecretFile(passwordFile, 'password-file') } : {}),
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
    ...(metricsPort !== undefined ? { metricsPort: parsePort(metricsPort, 'metrics-port') } : {}),
    ...(maxIntentsPerSecond ? { maxIntentsPerSecond } : {}),
    ...(foxglovePort !== undefined ? { foxglovePort: parsePort(foxglovePort, 'foxglove-port') } : {}),
    ...(foxgloveHost !== undefined ? { foxgloveHost } : {}),
    ...(cloudUrl !== undefined && cloudKeyFile !== undefined
      ? { cloud: { url: cloudUrl, key: await readSecretFile(cloudKeyFile, 'cloud-key-file') } }
      : {}),
  };
}

export const edgeRunCommand: Command = {
  path: ['edge', 'run'],
  summary:
    'Run the edge node: gate intents over MQTT, ROS 2 or a serial line and publish signed motor commands',
  usage:
    '--profile FILE --hmac-key FILE [--transport mqtt|ros2|serial[,…]] [--commands-on NAME] ' +
    '[--mqtt embedded:PORT|mqtt://HOST:PORT] [--username U --password-file F] [--tls-ca F] ' +
    '[--serial-port PATH] [--ros-bindings FILE] [--state-dir DIR] [--metrics-port N] ' +
    '[--max-intents-per-second N]',
  description: [
    'Loads the robot profile (and its trust keys) and the HMAC command key, then serves one robot:',
    'intents, telemetry and consent tokens arrive as JSON on pentagate/v1/<robotId>/{intent,telemetry/<source>,consent};',
    'signed motor commands leave on …/cmd (QoS 1, not retained) and verdict events on …/verdict.',
    'Every verdict is appended to an audit outbox in --state-dir (fsync before a motion command is published);',
    'the command seq and epoch persist there too. SIGINT/SIGTERM publish a signed STOP and shut down cleanly.',
    '',
    '--transport mqtt (default), ros2 or serial; several at once, repeated or comma-separated',
    '(`--transport ros2,serial`: sensors from ROS 2, commands to a controller on a serial line). Inputs come from',
    'every transport, verdicts go out on every one, signed commands on one only: --commands-on NAME, default',
    'serial, else ros2, else mqtt.',
    "  ros2: a ROS 2 node (rclnodejs; ROS 2 must be sourced) on the profile's topics.ros2 roles with their QoS;",
    '  commands (cmd role) must be reliable; diagnostics on /diagnostics (diagnostic_msgs/DiagnosticArray);',
    '  parameters robot_id, check_stamps, max_future_skew_ms (a launch file may override them).',
    '  --ros-bindings FILE (YAML) overrides per role (type, source, sector, heightBand, minRangeM, wheelbaseM,',
    '  frameId, moveClass …); --ros-node-name,',
    '  --ros-namespace; --ros-ignore-stamps for bags played with use_sim_time.',
    "  serial: the profile's topics.serial { path, baudRate, framing: ndjson|cobs, sendVerdicts };",
    '  --serial-port PATH overrides the path. The line reopens by itself after a hang-up.',
    '',
    '--mqtt embedded:PORT starts the built-in aedes broker on 127.0.0.1:PORT (see --broker-host) with',
    'authentication and per-robot topic rules; --broker-users FILE lists the robot/operator/simulator accounts',
    '([{ "username", "passwordHash" (from `pentagate edge hash-password`), "role", "robotId" }]).',
    '--mqtt mqtt://host:port (or mqtts://) connects to any broker (Mosquitto, EMQX) with --username and',
    '--password-file, and --tls-ca/--tls-cert/--tls-key for TLS.',
    '',
    '--record OUT.mcap writes every input, verdict (with the telemetry it was decided on) and command to a new',
    "MCAP file, to open in Foxglove beside the robot's own recordings (see `pentagate edge replay --help`).",
    '',
    '--foxglove-port N serves the same channels live over the Foxglove WebSocket protocol on 127.0.0.1:N',
    '(--foxglove-host to bind elsewhere): open Foxglove, "Open connection" → Foxglove WebSocket → ws://HOST:N.',
    '',
    `--max-intents-per-second N (default ${DEFAULT_MAX_INTENTS_PER_SECOND}, burst ${INTENT_BURST_SECONDS} s of it) limits the intents judged,`,
    'from every transport together; one over the limit is refused unjudged (INPUT.INTENT_RATE_LIMITED, counted in',
    'one summary record per window). Raise it for a cmd_vel or servo stream faster than 50 Hz. Telemetry,',
    'consent and STOPs are not limited; `edge replay` is not limited.',
    '',
    '--cloud URL --cloud-key-file F ships the audit outbox to the cloud in order, resuming where the cloud',
    'acknowledged after any restart or outage, and relays consent: a move waiting for an operator appears in',
    "the cloud's approvals queue, and a token the operator signs with their own enrolled key comes back over",
    'the link the edge opened (the edge trusts the operator keys the cloud enrolled, for consent only). The',
    'gate never waits for the cloud; tokens published on the consent topic keep working.',
    '',
    'One process per --state-dir: a second `edge run` (or `edge ship`) on it is refused while the first runs;',
    "a process killed without releasing it is no obstacle to a restart on its host (another host's lock goes",
    'stale 10 s after its last refresh).',
    '',
    'Exit codes: 0 stopped by a signal; 1 stopped by itself (the state directory lock was lost); 2 bad usage,',
    'unreadable files, a taken port, a state directory in use, an unreachable broker, ROS 2 not sourced or',
    'rclnodejs missing, or a serial port that does not open.',
    '',
    'Example: pentagate edge run --profile edge/profiles/ur5e-arm.yaml --hmac-key ur5e-01.cmd.jwk \\',
    '           --mqtt embedded:1883 --broker-users users.json --firmware fw.manifest.json --metrics-port 9464',
  ].join('\n'),
  options: {
    profile: { type: 'string', description: 'Robot profile (YAML or JSON)', valueName: 'FILE' },
    transport: {
      type: 'string',
      multiple: true,
      description: 'mqtt, ros2 or serial (repeatable or comma-separated; default mqtt)',
      valueName: 'NAME',
    },
    'commands-on': {
      type: 'string',
      description: 'The transport signed commands go out on (default serial, else ros2, else mqtt)',
      valueName: 'NAME',
    },
    'serial-port': {
      type: 'string',
      description: 'Serial device (overrides topics.serial.path)',
      valueName: 'PATH',
    },
    'ros-bindings': {
      type: 'string',
      description: 'Per-role ROS binding overrides (YAML)',
      valueName: 'FILE',
    },
    'ros-node-name': { type: 'string', description: 'ROS 2 node name', valueName: 'NAME' },
    'ros-namespace': { type: 'string', description: 'ROS 2 namespace', valueName: 'NS' },
    'ros-ignore-stamps': {
      type: 'boolean',
      description: 'Do not check header stamps against the edge clock (use_sim_time)',
    },
    'hmac-key': {
      type: 'string',
      description: 'HMAC command key shared with the controller (JWK)',
      valueName: 'FILE',
    },
    mqtt: {
      type: 'string',
      description: 'embedded:PORT or mqtt[s]://host:port',
      valueName: 'TARGET',
      default: 'embedded:1883',
    },
    'broker-host': {
      type: 'string',
      description: 'Embedded broker bind address (default 127.0.0.1)',
      valueName: 'HOST',
    },
    'broker-users': { type: 'string', description: 'Embedded broker users (JSON array)', valueName: 'FILE' },
    username: { type: 'string', description: 'MQTT username for an external broker', valueName: 'NAME' },
    'password-file': {
      type: 'string',
      description: 'File holding the MQTT password (one line)',
      valueName: 'FILE',
    },
    'tls-ca': { type: 'string', description: 'PEM CA bundle for the broker certificate', valueName: 'FILE' },
    'tls-cert': { type: 'string', description: 'PEM client certificate', valueName: 'FILE' },
    'tls-key': { type: 'string', description: 'PEM client key', valueName: 'FILE' },
    'tls-insecure': {
      type: 'boolean',
      description: 'Accept a broker certificate that does not verify (lab only)',
    },
    'state-dir': {
      type: 'string',
      description: 'Outbox, sequence store',
      valueName: 'DIR',
      default: 'pentagate-edge-state',
    },
    'metrics-port': {
      type: 'string',
      description: 'Serve /metrics and /healthz on this port (default: off)',
      valueName: 'N',
    },
    'max-intents-per-second': {
      type: 'string',
      description: `Intents judged per second, over every transport (default ${DEFAULT_MAX_INTENTS_PER_SECOND}, burst ${DEFAULT_MAX_INTENTS_PER_SECOND * INTENT_BURST_SECONDS}; 0 = default); more are refused unjudged`,
      valueName: 'N',
    },
    ...gateDocumentOptions,
    record: {
      type: 'string',
      description: 'Record inputs, verdicts, evidence and commands to a new MCAP file',
      valueName: 'OUT.mcap',
    },
    'foxglove-port': {
      type: 'string',
      description: 'Serve verdicts, evidence, commands and diagnostics live to Foxglove on this port',
      valueName: 'N',
    },
    'foxglove-host': {
      type: 'string',
      description: 'Foxglove WebSocket bind address (default 127.0.0.1)',
      valueName: 'HOST',
    },
    cloud: {
      type: 'string',
      description: 'Ship the audit outbox to this cloud (https://…; http:// on loopback)',
      valueName: 'URL',
    },
    'cloud-key-file': {
      type: 'string',
      description: "File holding the robot's edge key (from `pentagate cloud robot add`)",
      valueName: 'FILE',
    },
    ...CLOUD_INSECURE_HTTP_OPTION,
    'log-level': { type: 'string', description: 'pino level', valueName: 'LEVEL', default: 'info' },
  },
  async run(args, io) {
    const options = await edgeRunOptions(args);
    const started = await startEdgeRun(options);
    if (started.provenanceProblems.length > 0) {
      // Said on stderr, not only logged: with PROVENANCE unable to pass, every intent will be vetoed.
      io.err(
        `pentagate edge run: WARNING: PROVENANCE cannot pass, so every intent will be vetoed: ${started.provenanceProblems.join('; ')}`,
      );
    }
    io.err(
      `pentagate edge run: serving robot ${started.edge.node.robotId} over ${(options.transports ?? ['mqtt']).join(' + ')}${started.foxgloveUrl ? `; Foxglove on ${started.foxgloveUrl}` : ''}; Ctrl-C stops it`,
    );
    const stopped = await Promise.race([
      untilStopRequest().then((reason) => ({ reason, byItself: false })),
      started.mustStop.then((reason) => ({ reason, byItself: true })),
    ]);
    await started.stop(stopped.reason);
    if (stopped.byItself) {
      io.err(`pentagate edge run: stopped: ${stopped.reason}`);
      return ExitCode.invalid;
    }
    return ExitCode.ok;
  },
};
