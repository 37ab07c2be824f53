/** `pentagate edge run`: the edge node as a long-running process. */
import { type Command, ExitCode, requireOption, UsageError } from '@pentagate/protocol';
import type { BrokerUser } from '../broker/broker-users.js';
import type { MqttTlsOptions } from '../mqtt/mqtt-transport.js';
import { createEdgeLogger } from '../observability/logger.js';
import {
  optionalString,
  parseMqttTarget,
  parsePort,
  readInputFile,
  readJsonFile,
  readSecretFile,
  stringList,
} from './cli-values.js';
import { type EdgeRunOptions, startEdgeRun } from './edge-run.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Turns the command line into EdgeRunOptions (reads every file up front: fail before starting). */
export async function edgeRunOptions(args: Parameters<Command['run']>[0]): Promise<EdgeRunOptions> {
  const mqtt = parseMqttTarget(requireOption(args, 'mqtt'));
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
    mqtt,
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
  };
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(`received ${signal}`);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export const edgeRunCommand: Command = {
  path: ['edge', 'run'],
  summary: 'Run the edge node: gate intents over MQTT and publish signed motor commands',
  usage:
    '--profile FILE --hmac-key FILE [--mqtt embedded:PORT|mqtt://HOST:PORT] [--username U --password-file F] ' +
    '[--tls-ca F] [--state-dir DIR] [--metrics-port N]',
  description: [
    'Loads the robot profile (and its trust keys) and the HMAC command key, then serves one robot:',
    'intents, telemetry and consent tokens arrive as JSON on pentagate/v1/<robotId>/{intent,telemetry/<source>,consent};',
    'signed motor commands leave on …/cmd (QoS 1, not retained) and verdict events on …/verdict.',
    'Every verdict is appended to an audit outbox in --state-dir (fsync before a motion command is published);',
    'the command seq and epoch persist there too. SIGINT/SIGTERM publish a signed STOP and shut down cleanly.',
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
    'Exit codes: 0 stopped by a signal; 2 bad usage, unreadable files, a taken port or an unreachable broker.',
    '',
    'Example: pentagate edge run --profile edge/profiles/ur5e-arm.yaml --hmac-key ur5e-01.cmd.jwk \\',
    '           --mqtt embedded:1883 --broker-users users.json --firmware fw.manifest.json --metrics-port 9464',
  ].join('\n'),
  options: {
    profile: { type: 'string', description: 'Robot profile (YAML or JSON)', valueName: 'FILE' },
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
    firmware: {
      type: 'string',
      multiple: true,
      description: 'Firmware manifest (repeatable)',
      valueName: 'FILE',
    },
    calibration: {
      type: 'string',
      multiple: true,
      description: 'Calibration certificate (repeatable)',
      valueName: 'FILE',
    },
    record: {
      type: 'string',
      description: 'Record inputs, verdicts, evidence and commands to a new MCAP file',
      valueName: 'OUT.mcap',
    },
    'log-level': { type: 'string', description: 'pino level', valueName: 'LEVEL', default: 'info' },
  },
  async run(args, io) {
    const options = await edgeRunOptions(args);
    const started = await startEdgeRun(options);
    io.err(`pentagate edge run: serving robot ${started.edge.node.robotId}; Ctrl-C stops it`);
    const reason = await untilSignal();
    await started.stop(reason);
    return ExitCode.ok;
  },
};
