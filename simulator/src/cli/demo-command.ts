/**
 * `pentagate demo`: the README's main command. Makes keys and signed provenance documents in a temporary
 * state directory, starts the real edge (`pentagate edge run --mqtt embedded:PORT`) as a child process, then
 * loops the demo scenario — the arm works, a visitor walks into its radius (signed STOP), leaves, and a heavy
 * lift runs once the simulated operator consents — printing every verdict as it arrives. Stops cleanly on
 * Ctrl-C / SIGTERM or after `--duration`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Command, PentagateError, UsageError } from '@pentagate/protocol';
import { EdgeProcess } from '../edge/edge-process.js';
import { simulatedFirmware } from '../models/firmware-report.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../runner/timing-floor.js';
import { DEFAULT_FIRMWARE_VERSION, runScenario } from '../runner/scenario-runner.js';
import { loadScenario } from '../scenarios/load-scenario.js';
import { createRobotCredentials } from '../setup/robot-credentials.js';
import { DEMO_SCENARIO } from './scenario-paths.js';
import { verdictLine } from './verdict-line.js';

export const DEFAULT_DEMO_PORT = 18830;

function parsePort(text: string, option: string): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < 1 || n > 65535) {
    throw new UsageError(`--${option}: expected a TCP port 1..65535, got ${JSON.stringify(text)}`);
  }
  return n;
}

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new UsageError(`--duration: expected seconds between 0 and 86400, got ${JSON.stringify(text)}`);
  }
  return n;
}

export const demoCommand: Command = {
  path: ['demo'],
  summary: 'Run the edge, its embedded broker and a simulated robot cell; print verdicts live',
  usage: '[--mqtt-port PORT] [--duration SECONDS] [--scenario FILE]',
  description: [
    'Starts the embedded MQTT broker and an edge node (the real `pentagate edge run` as a child process) for',
    'a simulated UR5e-like arm, then loops a demo scenario: the arm moves, a visitor walks into its operating',
    'radius and the edge sends a signed STOP, the visitor leaves, and a heavy lift waits for the simulated',
    "operator's signed consent. Every verdict is printed as it arrives: time, outcome, intent, command seq,",
    'violations. Keys, trust file, firmware manifest and calibration certificates are generated in a',
    'temporary directory and removed at the end.',
    '',
    'Stops on Ctrl-C or SIGTERM, or --duration seconds after the edge is up. Exit codes: 0 ok, 1 the edge failed,',
    '2 bad usage or the port is taken.',
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
  },
  async run(args, io) {
    const portText = (args.options['mqtt-port'] ?? args.options.port) as string | undefined;
    const option = args.options['mqtt-port'] !== undefined ? 'mqtt-port' : 'port';
    const port = portText === undefined ? DEFAULT_DEMO_PORT : parsePort(portText, option);
    const durationS = parseDuration(args.options.duration as string | undefined);
    let loaded: ReturnType<typeof loadScenario>;
    try {
      loaded = loadScenario((args.options.scenario as string | undefined) ?? DEMO_SCENARIO);
    } catch (err) {
      io.err(`pentagate demo: ${(err as Error).message}`);
      return 2;
    }
    const { profile, scenario } = loaded;
    const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-demo-'));
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let timer: NodeJS.Timeout | undefined;
    let edge: EdgeProcess | undefined;
    try {
      const credentials = await createRobotCredentials({
        stateDir,
        profile: withTimingFloor(profile, DEFAULT_TIMING_FLOOR_MS),
        signedFirmware: simulatedFirmware(scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION),
      });
      edge = await EdgeProcess.start({ credentials, robotId: profile.robotId, mqttPort: port });
      // --duration counts from here: key generation and the edge's start (a few seconds) are not demo time.
      if (durationS !== undefined) timer = setTimeout(onSignal, durationS * 1000);
      io.out(
        `Pentagate demo: edge for robot ${profile.robotId} on the embedded broker mqtt://127.0.0.1:${port}; ` +
          `looping scenario ${scenario.name} (${scenario.durationMs / 1000} s). Ctrl-C stops.`,
      );
      const cell = {
        robot: edge.accounts.robot,
        operator: edge.accounts.operator,
        log: () => '',
        close: async () => {},
      };
      let round = 0;
      let firstTelemetrySeq = 1;
      while (!stop.signal.aborted) {
        round++;
        io.out(`— round ${round}: ${scenario.description}`);
        const result = await runScenario(loaded, {
          prepared: { credentials, cell },
          firstTelemetrySeq,
          signal: stop.signal,
          onVerdict: (v) => io.out(verdictLine(v)),
        });
        firstTelemetrySeq = result.lastTelemetrySeq + 1;
        if (stop.signal.aborted) break;
        const failed = result.expectations.filter((e) => !e.ok);
        io.out(
          failed.length === 0
            ? `— round ${round}: all ${result.expectations.length} expectations held`
            : `— round ${round}: ${failed.length} expectation(s) failed: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')}`,
        );
      }
      io.out('Pentagate demo: stopping (the edge sends a final signed STOP).');
      return 0;
    } catch (err) {
      if (err instanceof PentagateError) {
        io.err(`pentagate demo: ${err.message}`);
        return err.code === 'PORT_IN_USE' ? 2 : 1;
      }
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await edge?.stop();
      await rm(stateDir, { recursive: true, force: true });
    }
  },
};
