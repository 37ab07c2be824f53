/**
 * The broker accounts a `sim cell` writes (shell-kit.ts), where each account may publish only what its part of
 * the robot produces:
 * - `sim-<robot>`, the planner (role `planner`): intents out, verdicts back, and nothing else;
 * - `robot-<robot>`, the robot's controller (role `controller`): the robot's own state sources (joint states,
 *   pose, battery, firmware report; every source of the profile that is not a proximity sensor) bound to it
 *   alone, and the signed commands it executes;
 * - `sensor-<robot>` (role `sensor`): the proximity sources, bound to it alone;
 * - `operator-<robot>` (role `operator`): consent tokens.
 *
 * Before, the planner's account had role `simulator`, which publishes every source no other account lists:
 * whoever held the planner's password could report the joints where they were not, a full battery or the
 * signed firmware, and the gates would judge the planner's intents by the planner's own word about the robot
 * (ARCHITECTURE.md §6: rights by role and by leaf, nothing implied; spec §1.9: PROVENANCE verifies the chain of
 * custody of the data the gates use).
 */
import type { RobotProfile } from '@pentagate/protocol';
import {
  type BrokerUserEntry,
  type SimulatorAccount,
  accountPassword,
  brokerAccountsFor,
  proximitySources,
} from './broker-accounts.js';

/** The sources the robot's controller account speaks for: every source of the profile but proximity. */
export function robotStateSources(profile: Pick<RobotProfile, 'sources'>): string[] {
  return profile.sources.filter((s) => s.kind !== 'proximity').map((s) => s.name);
}

export interface CellBrokerAccounts {
  users: BrokerUserEntry[];
  planner: SimulatorAccount;
  /** Absent when the profile has no source but proximity sensors. */
  robot?: SimulatorAccount;
  sensor?: SimulatorAccount;
  operator: SimulatorAccount;
}

/** The users file entries and the matching logins of a sim cell for `profile`'s robot. */
export async function cellBrokerAccounts(
  pentagateBin: string,
  profile: Pick<RobotProfile, 'robotId' | 'sources'>,
): Promise<CellBrokerAccounts> {
  const { robotId } = profile;
  const base = await brokerAccountsFor(pentagateBin, robotId, proximitySources(profile));
  const stateSources = robotStateSources(profile);
  const users = base.users.map(
    (u): BrokerUserEntry => (u.role === 'simulator' ? { ...u, role: 'planner' } : u),
  );
  if (stateSources.length === 0) {
    return {
      users,
      planner: base.simulator,
      ...(base.sensor ? { sensor: base.sensor } : {}),
      operator: base.operator,
    };
  }
  const pw = await accountPassword(pentagateBin, 'robot');
  const robot = { username: `robot-${robotId}`, password: pw.password };
  users.splice(1, 0, {
    username: robot.username,
    role: 'controller',
    robotId,
    sources: stateSources,
    passwordHash: pw.passwordHash,
  });
  return {
    users,
    planner: base.simulator,
    robot,
    ...(base.sensor ? { sensor: base.sensor } : {}),
    operator: base.operator,
  };
}
