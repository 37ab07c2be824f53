/**
 * `pentagate sim cell`: writes a simulated robot cell — keys, trust file, the scenario's robot profile (with
 * the timing floor), a vendor-signed firmware manifest and lab-signed calibration certificates — into a
 * directory, for an edge the simulator does not start itself (docker-compose: the edge and the simulator
 * mount the same volume). Prints the `pentagate edge run` options that go with it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Command, ExitCode, requireOption, UsageError } from '@pentagate/protocol';
import { simulatedFirmware } from '../models/firmware-report.js';
import { DEFAULT_FIRMWARE_VERSION } from '../runner/scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../runner/timing-floor.js';
import { loadScenario } from '../scenarios/load-scenario.js';
import {
  createRobotCredentials,
  loadRobotCredentials,
  type RobotCredentials,
} from '../setup/robot-credentials.js';
import { writeShellKit } from '../setup/shell-kit.js';
import { DEMO_SCENARIO } from './scenario-paths.js';

/** The embedded broker port the printed line uses unless --mqtt-port says otherwise (1883 is often taken). */
export const DEFAULT_CELL_MQTT_PORT = 1884;

/** The `edge run` options that load this cell's profile, key and provenance documents. */
export function edgeOptionsForCell(c: RobotCredentials): string[] {
  return [
    '--profile',
    c.profilePath,
    '--hmac-key',
    c.hmacKeyPath,
    ...c.firmwareManifestPaths.flatMap((p) => ['--firmware', p]),
    ...c.calibrationPaths.flatMap((p) => ['--calibration', p]),
  ];
}

export const simCellCommand: Command = {
  path: ['sim', 'cell'],
  summary:
    'Write a simulated robot cell (keys, trust, profile, signed provenance) for an edge started elsewhere',
  usage: '--out DIR [--scenario FILE] [--hmac-key FILE] [--timing-floor MS] [--mqtt-port N]',
  description: [
    "Writes into DIR what the edge and the simulator share: the scenario's robot profile (default: the demo",
    "scenario's) with trust.path pointing at a generated trust file (vendor, calibration lab and operator keys),",
    'the HMAC command key (generated, or copied from --hmac-key), a vendor-signed manifest for the simulated',
    'firmware and lab-signed calibration certificates; and for driving the edge from a shell, broker accounts',
    '(DIR/broker/users.json: sim-<robot>, the planner, for intents and verdicts only; robot-<robot> alone for',
    "the robot's state sources (joint states, pose, battery, firmware) and commands; sensor-<robot> alone for the",
    'proximity sources; operator-<robot> for consent; each clear password in DIR/broker/<user>.password, mode',
    '0600) and',
    'example messages (DIR/examples: one telemetry frame per source with "stampMs":0 to replace by the time,',
    'and an intent).',
    'Prints the whole `npx pentagate edge run` line: the embedded broker on --mqtt-port (default',
    `${DEFAULT_CELL_MQTT_PORT}, so a local broker on 1883 is left alone) with those accounts, state in DIR/edge-state.`,
    'For an edge elsewhere (docker-compose), take the --profile … --calibration options and add your broker;',
    'then `pentagate demo --connect mqtt://HOST:PORT --cell DIR …` (against this embedded broker: --username',
    'robot-<robot> --password-file DIR/broker/robot-<robot>.password --planner-username sim-<robot>',
    '--planner-password-file DIR/broker/sim-<robot>.password --sensor-username sensor-<robot>',
    '--sensor-password-file DIR/broker/sensor-<robot>.password).',
    'If DIR already holds a cell it is kept as it is (so a restarted deployment keeps its keys).',
    '',
    "Every source's maxAgeMs and command.validForMs are raised to at least --timing-floor MS (default",
    `${DEFAULT_TIMING_FLOOR_MS}; 0 keeps the profile as written), as in \`pentagate sim run\`.`,
    '',
    'Exit codes: 0 written (or kept), 2 bad usage or an invalid scenario.',
    '',
    'Example: pentagate sim cell --out /cell --hmac-key /run/secrets/edge_hmac_key',
  ].join('\n'),
  options: {
    out: { type: 'string', valueName: 'DIR', description: 'where to write the cell' },
    scenario: { type: 'string', valueName: 'FILE', description: 'take the robot profile from this scenario' },
    'hmac-key': { type: 'string', valueName: 'FILE', description: 'use this HMAC command key (JWK)' },
    'mqtt-port': {
      type: 'string',
      valueName: 'N',
      description: `the embedded broker port in the printed edge run line (default ${DEFAULT_CELL_MQTT_PORT})`,
    },
    'timing-floor': {
      type: 'string',
      valueName: 'MS',
      description: `raise maxAgeMs and validForMs to at least MS (default ${DEFAULT_TIMING_FLOOR_MS})`,
    },
  },
  async run(args, io) {
    const out = requireOption(args, 'out');
    const portText = (args.options['mqtt-port'] as string | undefined) ?? String(DEFAULT_CELL_MQTT_PORT);
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65_535) {
      throw new UsageError(`--mqtt-port: expected a port 1..65535, got ${JSON.stringify(portText)}`);
    }
    const floorText = (args.options['timing-floor'] as string | undefined) ?? String(DEFAULT_TIMING_FLOOR_MS);
    if (!/^[0-9]{1,5}$/.test(floorText)) {
      throw new UsageError(
        `--timing-floor: expected milliseconds 0..99999, got ${JSON.stringify(floorText)}`,
      );
    }
    let credentials: RobotCredentials;
    if (existsSync(join(out, 'profile.yaml'))) {
      credentials = await loadRobotCredentials(out);
      io.err(`pentagate sim cell: ${out} already holds a cell; keeping it`);
    } else {
      let loaded: ReturnType<typeof loadScenario>;
      try {
        loaded = loadScenario((args.options.scenario as string | undefined) ?? DEMO_SCENARIO);
      } catch (err) {
        io.err(`pentagate sim cell: ${(err as Error).message}`);
        return ExitCode.usage;
      }
      await mkdir(out, { recursive: true, mode: 0o700 });
      if ((await readdir(out)).some((f) => !f.startsWith('.'))) {
        throw new UsageError(
          `--out: expected an empty directory or an existing cell, got ${out} with other files`,
        );
      }
      const hmacKeyFrom = args.options['hmac-key'] as string | undefined;
      const profile = withTimingFloor(loaded.profile, Number(floorText));
      const firmware = simulatedFirmware(loaded.scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION);
      credentials = await createRobotCredentials({
        stateDir: out,
        profile,
        signedFirmware: firmware,
        calibration: loaded.scenario.calibration ?? 'valid',
        ...(hmacKeyFrom !== undefined ? { hmacKeyFrom } : {}),
      });
      const kit = await writeShellKit(out, profile, firmware, loaded.scenario.initial?.jointsRad ?? []);
      io.err(
        `pentagate sim cell: wrote a cell for robot ${profile.robotId} to ${out}; ` +
          `planner account ${kit.username}, intents only (password in ${kit.passwordPath})` +
          (kit.robot
            ? `, the robot's state sources only as ${kit.robot.username} (password in ${kit.robot.passwordPath})`
            : '') +
          (kit.sensor
            ? `, proximity sources only as ${kit.sensor.username} (password in ${kit.sensor.passwordPath})`
            : '') +
          `, example messages in ${kit.examplesDir}`,
      );
    }
    const users = join(out, 'broker', 'users.json');
    const broker = [
      '--mqtt',
      `embedded:${portText}`,
      ...(existsSync(users) ? ['--broker-users', users] : []),
      '--state-dir',
      join(out, 'edge-state'),
    ];
    io.out(['npx', 'pentagate', 'edge', 'run', ...edgeOptionsForCell(credentials), ...broker].join(' '));
    return ExitCode.ok;
  },
};
