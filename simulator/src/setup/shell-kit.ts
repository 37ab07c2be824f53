/**
 * What a person needs to drive an edge from a shell, written into a `sim cell` directory: broker accounts for
 * the embedded broker (`broker/users.json`, scrypt hashes only, with each clear password in its own 0600 file
 * beside it; the planner publishes only intents, the robot's state sources are bound to the robot's account
 * and the proximity sources to the sensor account, cell-broker-accounts.ts) and example messages
 * (`examples/`): one telemetry frame per source of the profile, every gate passing, with `"stampMs":0` for
 * the shell to replace by the current time, and a small intent that the gate signs. The frames are written
 * from the profile and the cell's own firmware and start pose, so the firmware hash matches the signed
 * manifest and the joints are where the robot is.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Intent, RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import { cellBrokerAccounts } from '../edge/cell-broker-accounts.js';
import { PENTAGATE_BIN } from '../edge/edge-process.js';
import type { FirmwareIdentity } from '../models/firmware-report.js';

export interface ShellKit {
  usersPath: string;
  /** The planner's account: publishes intents and reads verdicts, nothing else (role `planner`). */
  username: string;
  passwordPath: string;
  /** The account that alone publishes the robot's state sources and reads commands (role `controller`). */
  robot?: { username: string; passwordPath: string };
  /** The account that alone publishes the proximity sources (role `sensor`), if the profile has any. */
  sensor?: { username: string; passwordPath: string };
  examplesDir: string;
}

/** One frame per source: nobody near, a charged battery, the signed firmware, the robot at rest. */
function exampleFrames(
  profile: RobotProfile,
  firmware: FirmwareIdentity,
  jointsRad: readonly number[],
): TelemetryFrame[] {
  const common = { v: 1 as const, robotId: profile.robotId, seq: 1, stampMs: 0 };
  return profile.sources.map((s): TelemetryFrame => {
    const at = { ...common, source: s.name };
    switch (s.kind) {
      case 'joint-state':
        return {
          ...at,
          kind: 'joint-state',
          names: profile.joints.map((j) => j.name),
          positionsRad: profile.joints.map((_, i) => jointsRad[i] ?? 0),
          velocitiesRadS: profile.joints.map(() => 0),
          effortsNm: profile.joints.map(() => 1),
        };
      case 'pose':
        return {
          ...at,
          kind: 'pose',
          positionM: { x: 0, y: 0, z: 0 },
          orientation: { x: 0, y: 0, z: 0, w: 1 },
        };
      case 'proximity':
        return { ...at, kind: 'proximity', nearestHumanM: null };
      case 'battery':
        return {
          ...at,
          kind: 'battery',
          voltageV: profile.battery.nominalVoltageV,
          currentA: 1,
          stateOfCharge: 0.9,
        };
      default:
        return { ...at, kind: 'firmware', imageSha256: firmware.imageSha256, version: firmware.version };
    }
  });
}

/** A slow move every gate passes: the first joint 0.05 rad over 2 s (a base: 0.1 m/s for 1 s), light efforts. */
function exampleIntent(profile: RobotProfile, jointsRad: readonly number[]): Intent {
  const common = { v: 1 as const, intentId: 'shell-1', robotId: profile.robotId };
  if (profile.joints.length === 0) {
    return {
      ...common,
      kind: 'base-twist',
      linearMps: { x: 0.1, y: 0, z: 0 },
      angularRadS: { x: 0, y: 0, z: 0 },
      durationMs: 1000,
    };
  }
  return {
    ...common,
    kind: 'joint-trajectory',
    jointNames: profile.joints.map((j) => j.name),
    points: [
      {
        positionsRad: profile.joints.map((_, i) => (jointsRad[i] ?? 0) + (i === 0 ? 0.05 : 0)),
        effortsNm: profile.joints.map(() => 5),
        timeFromStartMs: 2000,
      },
    ],
  };
}

export async function writeShellKit(
  dir: string,
  profile: RobotProfile,
  firmware: FirmwareIdentity,
  jointsRad: readonly number[],
): Promise<ShellKit> {
  const brokerDir = join(dir, 'broker');
  const examplesDir = join(dir, 'examples');
  await mkdir(brokerDir, { recursive: true, mode: 0o700 });
  await mkdir(examplesDir, { recursive: true });
  const accounts = await cellBrokerAccounts(PENTAGATE_BIN, profile);
  const usersPath = join(brokerDir, 'users.json');
  await writeFile(usersPath, `${JSON.stringify(accounts.users, null, 2)}\n`, { mode: 0o600 });
  const passwordPath = (username: string) => join(brokerDir, `${username}.password`);
  for (const account of [accounts.planner, accounts.robot, accounts.sensor, accounts.operator]) {
    if (account === undefined) continue;
    await writeFile(passwordPath(account.username), `${account.password}\n`, {
      mode: 0o600,
    });
  }
  for (const frame of exampleFrames(profile, firmware, jointsRad)) {
    await writeFile(join(examplesDir, `telemetry-${frame.source}.json`), `${JSON.stringify(frame)}\n`);
  }
  await writeFile(join(examplesDir, 'intent.json'), `${JSON.stringify(exampleIntent(profile, jointsRad))}\n`);
  return {
    usersPath,
    username: accounts.planner.username,
    passwordPath: passwordPath(accounts.planner.username),
    ...(accounts.robot
      ? { robot: { username: accounts.robot.username, passwordPath: passwordPath(accounts.robot.username) } }
      : {}),
    ...(accounts.sensor
      ? {
          sensor: {
            username: accounts.sensor.username,
            passwordPath: passwordPath(accounts.sensor.username),
          },
        }
      : {}),
    examplesDir,
  };
}
