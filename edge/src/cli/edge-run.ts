/**
 * What `pentagate edge run` does, as a function the tests call: load the profile and keys, open the state
 * directory, start the embedded broker when MQTT is asked for with one, open the transports, start the edge
 * node; `stop` shuts down gracefully (STOP, drain, flush, close).
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readHmacKeyFile, TrustStore, assertOwnerOnlyKeyFile } from '@pentagate/crypto';
import { robotTopics } from '@pentagate/protocol';
import type { Logger } from 'pino';
import type { BrokerUser } from '../broker/broker-users.js';
import { type EmbeddedBroker, startEmbeddedBroker } from '../broker/embedded-broker.js';
import { type RefusalLog, refusalLog } from '../broker/refusal-log.js';
import { withProfilePublishers } from '../broker/profile-publishers.js';
import { EdgeGate } from '../trap/edge-gate.js';
import { FileSequenceStore } from '../trap/sequence-store.js';
import { FileSpentConsentNonces } from '../trap/spent-consent-nonces.js';
import type { MqttTlsOptions } from '../mqtt/mqtt-transport.js';
import { type RunningEdge, startEdgeNode } from '../node/start-edge-node.js';
import { lockStateDir, type StateDirLock } from '../node/state-dir-lock.js';
import { McapRecordingTransport } from '../mcap/mcap-recording-transport.js';
import { VerdictRecorder } from '../mcap/verdict-recorder.js';
import { type DecisionSink, teeSinks } from '../mcap/decision-sink.js';
import { FoxgloveLive } from '../foxglove/foxglove-live.js';
import { loadRobotProfile } from '../profile/load-profile.js';
import { profileWarnings } from '../profile/profile-warnings.js';
import { readSensorKeys } from '../telemetry/sensor-key-files.js';
import type { TransportName } from '../transport/combined-transport.js';
import type { RobotTransport } from '../transport/robot-transport.js';
import { type RunningUplink, startUplink, type UplinkOptions } from '../uplink/start-uplink.js';
import type { MqttTarget } from './cli-values.js';
import { openEdgeTransports, type RosRunOptions, type SerialRunOptions } from './edge-run-transports.js';

export interface EdgeRunOptions {
  profilePath: string;
  hmacKeyPath: string;
  /** Sensor nodes' HMAC key files (`--sensor-key`), for sources the profile marks `authenticated`. */
  sensorKeyPaths?: string[];
  mqtt: MqttTarget;
  /** Default ['mqtt']. */
  transports?: TransportName[];
  /** Where signed commands go when several transports run (default: serial, else ros2, else mqtt). */
  commandsOn?: TransportName;
  ros?: RosRunOptions;
  serial?: SerialRunOptions;
  /** Embedded broker only: bind address and the users besides the edge itself. */
  brokerHost?: string;
  brokerUsers?: BrokerUser[];
  username?: string;
  password?: string;
  tls?: MqttTlsOptions;
  stateDir: string;
  metricsPort?: number;
  /** Intents a second the node judges (`--max-intents-per-second`; absent or 0 = the node's default, 50). */
  maxIntentsPerSecond?: number;
  /** DSSE envelopes: vendor-signed firmware manifests and lab-signed calibration certificates. */
  firmwareManifests: unknown[];
  calibrationCertificates: unknown[];
  logger: Logger;
  /** Record inputs, verdicts, evidence and commands to this new MCAP file (`--record`). */
  recordPath?: string;
  /** Serve verdicts, evidence, commands, diagnostics and inputs over the Foxglove WebSocket protocol (0 = any). */
  foxglovePort?: number;
  /** Default 127.0.0.1. */
  foxgloveHost?: string;
  /** Ship the audit outbox to the cloud (`--cloud URL --cloud-key-file F`). */
  cloud?: UplinkOptions;
}

export interface StartedEdge {
  edge: RunningEdge;
  broker: EmbeddedBroker | undefined;
  /** The Foxglove WebSocket URL when `foxglovePort` was given. */
  foxgloveUrl: string | undefined;
  uplink: RunningUplink | undefined;
  /** Why PROVENANCE cannot pass whatever telemetry arrives (empty when it can); `edge run` says so on stderr. */
  provenanceProblems: string[];
  /**
   * Settles with the reason when the edge must stop by itself: its state directory's lock was lost (taken
   * over by another process, or not refreshed in time), so it can no longer know it is alone there. The
   * caller stops it (a final STOP is still safe to send) and exits with an error.
   */
  mustStop: Promise<string>;
  stop(reason?: string): Promise<void>;
}

export async function startEdgeRun(options: EdgeRunOptions): Promise<StartedEdge> {
  await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
  let lockLost: (reason: string) => void = () => {};
  const mustStop = new Promise<string>((resolve) => {
    lockLost = resolve;
  });
  const lock = await lockStateDir(options.stateDir, {
    purpose: 'edge run',
    onLost: (err) => {
      options.logger.error({ err }, 'state directory lock lost: stopping');
      lockLost(`the lock of state directory ${options.stateDir} was lost (${err.message})`);
    },
  });
  try {
    return await startLocked(options, lock, mustStop);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

async function startLocked(
  options: EdgeRunOptions,
  lock: StateDirLock,
  mustStop: Promise<string>,
): Promise<StartedEdge> {
  const log = options.logger;
  const profile = loadRobotProfile(options.profilePath);
  const trust = TrustStore.fromDocument(
    profile.trust.document ?? { keys: [] },
    `trust of ${options.profilePath}`,
  );
  for (const w of profileWarnings(profile)) log.warn({ path: w.path }, `profile: ${w.message}`);
  await assertOwnerOnlyKeyFile(options.hmacKeyPath, 'HMAC command key');
  const hmacKey = await readHmacKeyFile(options.hmacKeyPath);
  const sensorKeys = await readSensorKeys(profile, options.sensorKeyPaths ?? []);
  const sequence = FileSequenceStore.open(join(options.stateDir, 'sequence.json'));
  const spentConsentNonces = FileSpentConsentNonces.open(
    join(options.stateDir, 'consent-nonces.json'),
    Date.now(),
  );
  const gate = new EdgeGate({ profile, trust, hmacKey, sensorKeys, sequence, spentConsentNonces });
  const provenance = gate.loadProvenance({
    firmwareManifests: options.firmwareManifests,
    calibrationCertificates: options.calibrationCertificates,
  });
  for (const r of provenance.rejected) log.warn({ ...r }, 'provenance document refused');
  const provenanceProblems = gate.provenanceProblems(provenance);

  const transports = options.transports ?? ['mqtt'];
  const useMqtt = transports.includes('mqtt');
  let broker: EmbeddedBroker | undefined;
  let brokerRefusals: RefusalLog | undefined;
  let url = '';
  let username = options.username;
  let password = options.password;
  if (useMqtt && options.mqtt.kind === 'embedded') {
    // The edge's own broker identity lives only in this process: a fresh random password every start.
    username = `edge-${profile.robotId}`;
    password = randomBytes(24).toString('base64url');
    brokerRefusals = refusalLog(log);
    broker = await startEmbeddedBroker({
      onRefusal: brokerRefusals.onRefusal,
      port: options.mqtt.port,
      ...(options.brokerHost !== undefined ? { host: options.brokerHost } : {}),
      users: withProfilePublishers(
        [{ username, password, role: 'edge', robotId: profile.robotId }, ...(options.brokerUsers ?? [])],
        profile,
      ),
    });
    url = broker.url;
    log.info(
      { url, users: (options.brokerUsers ?? []).map((u) => u.username) },
      'embedded MQTT broker listening',
    );
    if ((options.brokerUsers ?? []).length === 0) {
      log.warn(
        'embedded broker has no users besides the edge: pass --broker-users FILE so robots can connect',
      );
    }
  } else if (options.mqtt.kind === 'url') {
    url = options.mqtt.url;
  }
  let edge: RunningEdge;
  let recorder: VerdictRecorder | undefined;
  let foxglove: FoxgloveLive | undefined;
  let transport: RobotTransport | undefined;
  try {
    recorder = options.recordPath ? await VerdictRecorder.create(options.recordPath) : undefined;
    foxglove =
      options.foxglovePort !== undefined
        ? await FoxgloveLive.start({
            port: options.foxglovePort,
            robotId: profile.robotId,
            ...(options.foxgloveHost !== undefined ? { host: options.foxgloveHost } : {}),
          })
        : undefined;
    const sinks = [recorder, foxglove].filter((x): x is VerdictRecorder | FoxgloveLive => x !== undefined);
    const record: DecisionSink | undefined =
      sinks.length === 0 ? undefined : sinks.length === 1 ? sinks[0] : teeSinks(sinks);
    transport = await openEdgeTransports({
      profile,
      transports,
      ...(options.commandsOn !== undefined ? { commandsOn: options.commandsOn } : {}),
      ...(useMqtt
        ? {
            mqtt: {
              url,
              ...(username !== undefined ? { username } : {}),
              ...(password !== undefined ? { password } : {}),
              ...(options.tls !== undefined ? { tls: options.tls } : {}),
            },
          }
        : {}),
      ...(options.ros !== undefined ? { ros: options.ros } : {}),
      ...(options.serial !== undefined ? { serial: options.serial } : {}),
      logger: log,
    });
    edge = await startEdgeNode({
      ...(record ? { wrapTransport: (t) => new McapRecordingTransport(t, record) } : {}),
      robotId: profile.robotId,
      gate,
      transport,
      stateDir: options.stateDir,
      logger: log,
      ...(options.metricsPort !== undefined ? { metricsPort: options.metricsPort } : {}),
      ...(options.maxIntentsPerSecond ? { maxIntentsPerSecond: options.maxIntentsPerSecond } : {}),
    });
  } catch (err) {
    await transport?.close().catch(() => {});
    await recorder?.close().catch(() => {});
    await foxglove?.close().catch(() => {});
    await broker?.close();
    brokerRefusals?.flush();
    throw err;
  }
  log.info(
    {
      robotId: profile.robotId,
      transports,
      kid: hmacKey.kid,
      cfgDigest: gate.cfgDigest,
      epoch: gate.epoch,
      metrics: edge.observability?.url,
      foxglove: foxglove?.url,
      provenanceAccepted: provenance.accepted,
    },
    'edge running',
  );
  const uplink = options.cloud
    ? startUplink(options.cloud, {
        robotId: profile.robotId,
        outbox: edge.outbox,
        metrics: edge.metrics,
        logger: log,
        consent: {
          gate,
          // the same path as a token published on the consent topic: same checks, verdicts and audit
          deliver: (token) =>
            edge.node.handleMessage(
              robotTopics(profile.robotId).consent,
              new TextEncoder().encode(JSON.stringify(token)),
            ),
        },
      })
    : undefined;
  // every consent token, from the broker or the relay, signed by a key from the cloud waits for the keys to be
  // read again before the gate takes it: a key retired in the cloud must release nothing from then on
  edge.node.screenConsents(uplink?.consent);
  return {
    edge,
    broker,
    foxgloveUrl: foxglove?.url,
    uplink,
    provenanceProblems,
    mustStop,
    async stop(reason) {
      // the uplink reads the outbox the node closes; what it has not shipped ships after the next start
      await uplink?.stop();
      await edge.stop(reason);
      await broker?.close();
      brokerRefusals?.flush();
      await lock.release();
    },
  };
}
