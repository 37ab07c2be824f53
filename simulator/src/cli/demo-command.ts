/**
 * `pentagate demo`: the README's main command. Makes keys and signed provenance documents in a temporary
 * state directory, starts the real edge (`pentagate edge run --mqtt embedded:PORT`) as a child process, then
 * loops the demo scenario — the arm works, a visitor walks into its radius (signed STOP), leaves, and a heavy
 * lift runs once the simulated operator consents — printing every verdict as it arrives. Stops cleanly on
 * Ctrl-C / SIGTERM or after `--duration`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cannotRead,
  type CliIo,
  type Command,
  onStopRequest,
  PentagateError,
  requireOption,
  UsageError,
} from '@pentagate/protocol';
import { parse } from 'yaml';
import { proximitySources } from '../edge/broker-accounts.js';
import { EdgeProcess, requirePortFree } from '../edge/edge-process.js';
import { simulatedFirmware } from '../models/firmware-report.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../runner/timing-floor.js';
import { DEFAULT_FIRMWARE_VERSION, type RunOptions, runScenario } from '../runner/scenario-runner.js';
import { cloudConsentRelay } from '../fleet/cloud-consent.js';
import { withTimeForConsent } from './manual-consent.js';
import { roundOutcome } from './round-outcome.js';
import { type LoadedScenario, loadScenario } from '../scenarios/load-scenario.js';
import type { RobotCell } from '../runner/robot-cell.js';
import {
  createRobotCredentials,
  loadRobotCredentials,
  type RobotCredentials,
} from '../setup/robot-credentials.js';
import { type CloudOutage, DemoCloud } from '../fleet/demo-cloud.js';
import { DEMO_SCENARIO } from './scenario-paths.js';
import { verdictLine } from './verdict-line.js';
import { checkKitDir } from './kit-dir.js';

export const DEFAULT_DEMO_PORT = 18830;

function parsePort(text: string, option: string): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < 1 || n > 65535) {
    throw new UsageError(`--${option}: expected a TCP port 1..65535, got ${JSON.stringify(text)}`);
  }
  return n;
}

function parseDuration(text: string | undefined, option = 'duration'): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new UsageError(`--${option}: expected seconds between 0 and 86400, got ${JSON.stringify(text)}`);
  }
  return n;
}

/** --cloud-outage SECONDS [--cloud-outage-at SECONDS]: crash the cloud mid-run and bring it back. */
function parseOutage(args: Parameters<Command['run']>[0]): CloudOutage | undefined {
  const forS = parseDuration(args.options['cloud-outage'] as string | undefined, 'cloud-outage');
  if (forS === undefined) return undefined;
  return {
    forS,
    atS: parseDuration(args.options['cloud-outage-at'] as string | undefined, 'cloud-outage-at') ?? 5,
  };
}

/** Loops the scenario against one cell until aborted, printing every verdict and each round's outcome. */
async function loopScenario(
  loaded: LoadedScenario,
  credentials: RobotCredentials,
  cell: RobotCell,
  io: CliIo,
  signal: AbortSignal,
  firstSeq: number,
  relayConsent?: RunOptions['relayConsent'],
): Promise<void> {
  const { scenario } = loaded;
  let round = 0;
  let firstTelemetrySeqs = new Map<string, number>();
  while (!signal.aborted) {
    round++;
    io.out(`— round ${round}: ${scenario.description}`);
    const result = await runScenario(loaded, {
      prepared: { credentials, cell },
      ...(relayConsent ? { relayConsent } : {}),
      firstTelemetrySeq: firstSeq,
      firstTelemetrySeqs,
      signal,
      onVerdict: (v) => io.out(verdictLine(v)),
      onHalt: (h) =>
        io.out(`${new Date(h.atMs).toISOString().slice(11, 23)}  ROBOT HALTED (${h.cause})  ${h.detail}`),
    });
    firstTelemetrySeqs = new Map([...result.lastTelemetrySeqs].map(([source, seq]) => [source, seq + 1]));
    if (signal.aborted) break;
    io.out(roundOutcome(round, result));
  }
}

async function readPasswordFile(path: string, option: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--${option}: ${cannotRead(path, err)}`);
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line.length === 0)
    throw new UsageError(`--${option}: expected a password on the first line of ${path}, got nothing`);
  return line;
}

/**
 * --connect: an account given by `--<part>-username` and `--<part>-password-file`, which go together; undefined
 * when neither is given (the robot's account then does that part's work).
 */
async function optionalAccount(
  args: Parameters<Command['run']>[0],
  url: string,
  part: 'sensor' | 'planner',
): Promise<{ url: string; username: string; password: string } | undefined> {
  const name = args.options[`${part}-username`] as string | undefined;
  const file = args.options[`${part}-password-file`] as string | undefined;
  if ((name === undefined) !== (file === undefined)) {
    throw new UsageError(
      `--${part}-username and --${part}-password-file go together, got only --${name === undefined ? `${part}-password-file` : `${part}-username`}`,
    );
  }
  if (name === undefined || file === undefined) return undefined;
  return { url, username: name, password: await readPasswordFile(file, `${part}-password-file`) };
}

/** --connect: the broker accounts and the cell written by `pentagate sim cell` for an edge started elsewhere. */
async function connectTarget(
  args: Parameters<Command['run']>[0],
  url: string,
  robotId: string,
): Promise<{ credentials: RobotCredentials; cell: RobotCell }> {
  if (!/^mqtts?:\/\/[^/]+$/.test(url)) {
    throw new UsageError(
      `--connect: expected mqtt://HOST:PORT or mqtts://HOST:PORT, got ${JSON.stringify(url)}`,
    );
  }
  const dir = requireOption(args, 'cell');
  let credentials: RobotCredentials;
  try {
    credentials = await loadRobotCredentials(dir);
  } catch (err) {
    throw new UsageError(
      `--cell: expected a cell written by \`pentagate sim cell --out ${dir}\`: ${(err as Error).message}`,
    );
  }
  const cellRobot = (parse(await readFile(credentials.profilePath, 'utf8')) as { robotId?: unknown }).robotId;
  if (cellRobot !== robotId) {
    throw new UsageError(
      `--cell: the cell is for robot ${String(cellRobot)}, the scenario drives ${robotId}`,
    );
  }
  const robot = {
    url,
    username: requireOption(args, 'username'),
    password: await readPasswordFile(requireOption(args, 'password-file'), 'password-file'),
  };
  const sensor = await optionalAccount(args, url, 'sensor');
  const planner = await optionalAccount(args, url, 'planner');
  const operatorName = args.options['operator-username'] as string | undefined;
  const operator =
    operatorName === undefined
      ? robot
      : {
          url,
          username: operatorName,
          password: await readPasswordFile(
            requireOption(args, 'operator-password-file'),
            'operator-password-file',
          ),
        };
  return {
    credentials,
    cell: {
      robot,
      ...(planner ? { planner } : {}),
      ...(sensor ? { sensor } : {}),
      operator,
      log: () => '',
      alive: () => true,
      close: async () => {},
    },
  };
}

export const demoCommand: Command = {
  path: ['demo'],
  summary: 'Run the cloud, an edge with its embedded broker and a simulated robot cell; print verdicts live',
  usage:
    '[--mqtt-port PORT] [--cloud-port PORT] [--duration SECONDS] [--scenario FILE] ' +
    '[--cloud-outage SECONDS [--cloud-outage-at SECONDS]] [--kit-dir DIR] [--manual-consent] ' +
    '[--connect mqtt://HOST:PORT --cell DIR --username U --password-file F [--sensor-username U --sensor-password-file F] ' +
    '[--operator-username U --operator-password-file F]]',
  description: [
    'Starts the embedded MQTT broker and an edge node (the real `pentagate edge run` as a child process) for',
    'a simulated UR5e-like arm, then loops a demo scenario: the arm moves, a visitor walks into its operating',
    'radius and the edge sends a signed STOP, the visitor leaves, and a heavy lift waits for the simulated',
    "operator's signed consent. Every verdict is printed as it arrives: time, outcome, intent, command seq,",
    'violations. Keys, trust file, firmware manifest and calibration certificates are generated in a',
    'temporary directory and removed at the end.',
    '',
    'Stops on Ctrl-C, SIGTERM or SIGHUP, or --duration seconds after the edge is up, and then still ships the',
    "edge's audit records and exports the kit. Exit codes: 0 ok, 1 the edge or the cloud failed, 2 bad usage or",
    'the port is taken, 130 stopped (Ctrl-C) before the edge was up.',
    '',
    'With --connect mqtt://HOST:PORT the demo starts no edge and no broker: it drives the robot of a cell',
    'written by `pentagate sim cell` (whose edge runs elsewhere, e.g. in docker-compose) with the given MQTT',
    "accounts. Where the broker binds the proximity sources to a sensor account (the cell's embedded broker",
    "does: sensor-<robot>), give it with --sensor-username and --sensor-password-file; without them the robot's",
    'account publishes the proximity frames too, and such a broker refuses them. Where the planner has an account',
    "of its own that may publish only intents (the cell's embedded broker: sim-<robot>, the robot's state as",
    "robot-<robot>), give the robot's as --username and the planner's with --planner-username and",
    "--planner-password-file; without them the robot's account publishes the intents too.",
    '',
    'The cloud runs too (`pentagate cloud serve` on SQLite, a child process): the robot is registered in its',
    'fleet, the edge ships its audit outbox there, and the demo prints the cloud URL and a `curl -N` line for',
    'the live view. Agents are governed there too, by cloud/policies/example.yaml: the `agents:` line runs the',
    "example GovClient agent with an agent key the demo issued. The heavy lift waits in the cloud's approvals",
    'queue (`pentagate consent pending` lists it): the demo prints it with the `consent grant` line a person',
    'would run, then the simulated operator signs the consent with its own enrolled key and the cloud relays',
    'it to the edge over the link the edge opened (while the cloud is down, the token goes on the consent',
    'topic instead). --cloud-outage SECONDS kills the cloud (SIGKILL) --cloud-outage-at seconds into the run',
    '(default 5) and restarts it SECONDS later; the edge keeps working and catches up. At the end the demo',
    "ships what the edge's shutdown left, says how many of the edge's records the cloud holds, and exports the",
    'audit kit (default a new directory under the system temp dir; --kit-dir) for `pentagate verify kit`.',
    '',
    'With --manual-consent you are the operator: the simulated operator signs nothing, the heavy lift waits',
    "in the approvals queue until you grant it (the printed `consent grant` line, or the console's Approvals",
    "view) or the edge's consent timeout vetoes it; each round lasts long enough for that wait.",
    '',
    'Example: pentagate demo --duration 20',
  ].join('\n'),
  options: {
    'mqtt-port': {
      type: 'string',
      valueName: 'PORT',
      description: `port for the embedded MQTT broker (default ${DEFAULT_DEMO_PORT})`,
    },
    port: { type: 'string', valueName: 'PORT', description: 'the same as --mqtt-port' },
    'cloud-port': {
      type: 'string',
      valueName: 'PORT',
      description: 'port for the cloud on 127.0.0.1 (default: any free port)',
    },
    'cloud-outage': {
      type: 'string',
      valueName: 'SECONDS',
      description: 'kill the cloud mid-run for this long, then restart it',
    },
    'cloud-outage-at': {
      type: 'string',
      valueName: 'SECONDS',
      description: 'when the outage starts, after the edge is up (default 5)',
    },
    'manual-consent': {
      type: 'boolean',
      description: 'you grant the consent (console or `consent grant`); the simulated operator signs nothing',
    },
    'kit-dir': {
      type: 'string',
      valueName: 'DIR',
      description: 'where the audit kit is exported at the end (new or empty directory)',
    },
    duration: {
      type: 'string',
      valueName: 'SECONDS',
      description: 'stop this many seconds after the edge is up',
    },
    scenario: {
      type: 'string',
      valueName: 'FILE',
      description: 'loop this scenario instead of the demo one',
    },
    connect: {
      type: 'string',
      valueName: 'URL',
      description:
        'use this broker and the edge already serving the robot (needs --cell, --username, --password-file)',
    },
    cell: {
      type: 'string',
      valueName: 'DIR',
      description: 'with --connect: the cell from `pentagate sim cell`',
    },
    username: { type: 'string', valueName: 'NAME', description: "with --connect: the robot's MQTT user" },
    'password-file': {
      type: 'string',
      valueName: 'FILE',
      description: "with --connect: the robot's MQTT password",
    },
    'planner-username': {
      type: 'string',
      valueName: 'NAME',
      description:
        "with --connect: the planner's MQTT user, for intents and verdicts (needs --planner-password-file; default the robot's)",
    },
    'planner-password-file': {
      type: 'string',
      valueName: 'FILE',
      description: "with --connect: the planner's MQTT password",
    },
    'sensor-username': {
      type: 'string',
      valueName: 'NAME',
      description:
        "with --connect: the proximity sensors' MQTT user (needs --sensor-password-file; default the robot's)",
    },
    'sensor-password-file': {
      type: 'string',
      valueName: 'FILE',
      description: "with --connect: the proximity sensors' MQTT password",
    },
    'operator-username': {
      type: 'string',
      valueName: 'NAME',
      description: "with --connect: the operator's MQTT user (consent tokens; default the robot's)",
    },
    'operator-password-file': {
      type: 'string',
      valueName: 'FILE',
      description: "with --connect: the operator's MQTT password",
    },
  },
  async run(args, io) {
    const portText = (args.options['mqtt-port'] ?? args.options.port) as string | undefined;
    const option = args.options['mqtt-port'] !== undefined ? 'mqtt-port' : 'port';
    const port = portText === undefined ? DEFAULT_DEMO_PORT : parsePort(portText, option);
    const durationS = parseDuration(args.options.duration as string | undefined);
    const outage = parseOutage(args);
    const cloudPortText = args.options['cloud-port'] as string | undefined;
    const cloudPort = cloudPortText === undefined ? 0 : parsePort(cloudPortText, 'cloud-port');
    const kitDirOption = args.options['kit-dir'] as string | undefined;
    if (kitDirOption !== undefined) await checkKitDir(kitDirOption);
    const kitDir = kitDirOption ?? join(tmpdir(), `pentagate-demo-kit-${Date.now()}`);
    let loaded: ReturnType<typeof loadScenario>;
    try {
      loaded = loadScenario((args.options.scenario as string | undefined) ?? DEMO_SCENARIO);
    } catch (err) {
      io.err(`pentagate demo: ${(err as Error).message}`);
      return 2;
    }
    const connect = args.options.connect as string | undefined;
    const manualConsent = args.options['manual-consent'] === true;
    if (manualConsent && connect !== undefined) {
      throw new UsageError(
        "--manual-consent needs the demo's own cloud and approvals queue; with --connect, publish a token from `pentagate consent grant --intent` on the consent topic",
      );
    }
    if (manualConsent) loaded = withTimeForConsent(loaded);
    const { profile, scenario } = loaded;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    // Kept until the clean-up is over: a second signal during it (the edge's final STOP) must not kill us
    // half-way. A closed output (`demo | tee log` and Ctrl-C) is a stop request too.
    // SIGHUP (the terminal closed) too: the cloud and the edge run in their own process group and would
    // not get it.
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const offStop = onStopRequest(onSignal, signals);
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    // --duration counts from when the edge is up: key generation and the edge's start are not demo time.
    const startClock = () => {
      if (durationS !== undefined)
        timer = setTimeout(() => {
          timedOut = true;
          onSignal();
        }, durationS * 1000);
    };
    let edge: EdgeProcess | undefined;
    let cloud: DemoCloud | undefined;
    let stateDir: string | undefined;
    try {
      if (connect !== undefined) {
        const target = await connectTarget(args, connect, profile.robotId);
        startClock();
        io.out(
          `Pentagate demo: robot ${profile.robotId} on ${connect}, against the edge already serving it; ` +
            `looping scenario ${scenario.name} (${scenario.durationMs / 1000} s). Ctrl-C stops.`,
        );
        // Telemetry seqs must keep rising across restarts of this simulator against a long-running edge:
        // start at the wall clock in ms (sources publish at most every 10 ms, so seqs stay below it).
        await loopScenario(loaded, target.credentials, target.cell, io, stop.signal, Date.now());
        io.out('Pentagate demo: stopping.');
        return 0;
      }
      stateDir = await mkdtemp(join(tmpdir(), 'pentagate-demo-'));
      // The first seconds are key generation, broker accounts (scrypt) and the edge's own start: say so,
      // so a first run is not a silent wait (on stdout, the demo's display; stderr is kept for errors).
      io.out(
        `Pentagate demo: preparing robot ${profile.robotId}'s cell in ${stateDir} ` +
          '(command key, operator and vendor keys, signed firmware and calibration, broker accounts)…',
      );
      const credentials = await createRobotCredentials({
        stateDir,
        profile: withTimingFloor(profile, DEFAULT_TIMING_FLOOR_MS),
        signedFirmware: simulatedFirmware(scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION),
      });
      // before the cloud is set up: a taken port should fail fast, naming the demo's option for it (the
      // cloud's own error would name `cloud serve --port`)
      await requirePortFree(port);
      if (cloudPort !== 0) await requirePortFree(cloudPort, 'cloud-port', 'the cloud (or leave it out)');
      io.out(
        `Pentagate demo: starting the cloud (pentagate cloud serve) and the edge (pentagate edge run) with its embedded broker on port ${port}; ` +
          'it checks the profile and the signed documents before it listens…',
      );
      cloud = await DemoCloud.prepare(
        { stateDir, port: cloudPort, robotId: profile.robotId, credentials },
        io,
      );
      // Both start at once. Wait for both to settle, so an edge that started is stopped (finally) when the
      // cloud could not start, and a failure of either is answered here, not as an unhandled rejection.
      const [edgeStart, cloudStart] = await Promise.allSettled([
        EdgeProcess.start({
          credentials,
          robotId: profile.robotId,
          sensorSources: proximitySources(profile),
          mqttPort: port,
          cloud: cloud.edgeLink,
          // the edge starts beside the cloud: on a busy machine two cold starts take a while
          startTimeoutMs: 120_000,
          // Ctrl-C reaches the demo only; the demo stops the edge and the cloud in order
          ownProcessGroup: true,
        }),
        cloud.serve(),
      ]);
      if (edgeStart.status === 'rejected') throw edgeStart.reason;
      edge = edgeStart.value;
      if (cloudStart.status === 'rejected') throw cloudStart.reason;
      const running = edgeStart.value;
      startClock();
      io.out(
        `Pentagate demo: edge for robot ${profile.robotId} on the embedded broker mqtt://127.0.0.1:${port}; ` +
          `looping scenario ${scenario.name} (${scenario.durationMs / 1000} s). Ctrl-C stops.`,
      );
      cloud.printWelcome();
      if (outage) cloud.scheduleOutage(outage);
      const cell = {
        robot: running.accounts.robot,
        ...(running.accounts.sensor ? { sensor: running.accounts.sensor } : {}),
        operator: running.accounts.operator,
        log: () => '',
        alive: () => true,
        close: async () => {},
      };
      await loopScenario(
        loaded,
        credentials,
        cell,
        io,
        stop.signal,
        1,
        cloudConsentRelay(cloud.operator, io, { manual: manualConsent }),
      );
      io.out('Pentagate demo: stopping (the edge sends a final signed STOP).');
      await running.stop();
      edge = undefined;
      const summary = await cloud.finish(join(stateDir, 'edge'), kitDir);
      io.out(
        `Pentagate demo: the cloud holds ${summary.cloudAcknowledged} of the edge's ${summary.edgeRecords} audit records.\n` +
          `Audit kit (${summary.treeSize} entries): ${summary.kitDir}\n` +
          `  the cloud's keys, saved for it: ${summary.trustFile}\n` +
          `  check it: npx pentagate verify kit ${summary.kitDir} --trust ${summary.trustFile}`,
      );
      return 0;
    } catch (err) {
      if (stop.signal.aborted && !timedOut) {
        // Ctrl-C while starting also reaches the short-lived helper commands (same process group), which
        // then fail: that is the user's stop, not an error (128 + SIGINT, as a shell reports it).
        io.out('Pentagate demo: stopped before the edge was up.');
        return 130;
      }
      if (err instanceof PentagateError) {
        io.err(`pentagate demo: ${err.message}`);
        return err.code === 'PORT_IN_USE' || err instanceof UsageError ? 2 : 1;
      }
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
      offStop();
      await edge?.stop();
      await cloud?.close();
      if (stateDir) await rm(stateDir, { recursive: true, force: true });
    }
  },
};
