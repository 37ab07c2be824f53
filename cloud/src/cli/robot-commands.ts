/**
 * `pentagate cloud robot add|list|retire`: the robot registry of a tenant. `add` prints the robot's edge
 * key once (give it to the edge as `--cloud-key-file`); the store keeps its SHA-256 only.
 */
import { cannotRead, type Command, readJson, requireOption, UsageError } from '@pentagate/protocol';
import { readFile } from 'node:fs/promises';
import { addRobot, listRobots, retireRobot } from '../fleet/robot-registry.js';
import { openFleetStore } from '../store/open-fleet-store.js';
import type { FleetStore } from '../store/fleet-store.js';
import type { Store } from '../store/store.js';
import { JSON_OPTION, STATE_OPTIONS, withStore } from './state.js';

export const TENANT_OPTION = {
  tenant: {
    type: 'string',
    valueName: 'ID',
    description: 'the tenant id (from `pentagate cloud tenant create`)',
  },
} as const;

export function withFleet<T>(
  args: Parameters<Command['run']>[0],
  fn: (store: Store, fleet: FleetStore) => Promise<T>,
) {
  return withStore(args, async (store) => fn(store, await openFleetStore(store)));
}

async function readManifest(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--firmware: ${cannotRead(path, err)}`);
  }
  return readJson(text, { what: `firmware manifest ${path}` });
}

export const robotAddCommand: Command = {
  path: ['cloud', 'robot', 'add'],
  summary: "Register a robot and issue its edge's key (shown once)",
  usage:
    '--tenant ID --robot ROBOT_ID --command-kid KID --profile-digest HEX [--firmware FILE]… [--db …] [--json]',
  description:
    "Registers a robot in the tenant's fleet with its edge credential: an API key of scope `edge`, bound to\n" +
    'this robot only, printed once. --command-kid names the HMAC key the edge signs commands with (the `kid`\n' +
    'of its JWK), --profile-digest the SHA-256 of the profile it runs (`pentagate edge check --json` prints it),\n' +
    '--firmware the vendor-signed manifests it may run (repeatable). The change is audited (`robot` entry).\n' +
    'With --json prints { "robotId", "edgeKey", "edgeKeyId", "auditIndex" }.\n' +
    'Exit codes: 0 added, 2 bad usage, unknown tenant, a robot id already registered, or an unusable store.',
  options: {
    ...TENANT_OPTION,
    robot: { type: 'string', valueName: 'ROBOT_ID', description: 'the robot id (as in its profile)' },
    'command-kid': { type: 'string', valueName: 'KID', description: "the edge's motor-command key id" },
    'profile-digest': {
      type: 'string',
      valueName: 'HEX',
      description: 'SHA-256 of the JCS profile the edge runs',
    },
    firmware: {
      type: 'string',
      valueName: 'FILE',
      multiple: true,
      description: 'a signed firmware manifest (repeatable)',
    },
    ...STATE_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const files = (args.options.firmware as string[] | undefined) ?? [];
    const firmwareManifests = await Promise.all(files.map(readManifest));
    const added = await withFleet(args, (store, fleet) =>
      addRobot(store, fleet, {
        tenantId: requireOption(args, 'tenant'),
        robotId: requireOption(args, 'robot'),
        commandKid: requireOption(args, 'command-kid'),
        profileDigest: requireOption(args, 'profile-digest'),
        firmwareManifests,
      }),
    );
    if (args.options.json) {
      io.out(
        JSON.stringify({
          robotId: added.robot.robotId,
          edgeKey: added.edgeKey.key,
          edgeKeyId: added.edgeKey.record.id,
          auditIndex: added.auditIndex,
        }),
      );
    } else {
      io.out(added.edgeKey.key);
      io.err(`robot ${added.robot.robotId}: edge key ${added.edgeKey.record.id} shown once, store it now`);
    }
    return 0;
  },
};

export const robotListCommand: Command = {
  path: ['cloud', 'robot', 'list'],
  summary: "List a tenant's robots (never their keys)",
  usage: '--tenant ID [--db …] [--json]',
  description:
    'Lists robot ids, edge key ids, command key ids, profile digests and retirement.\nExit codes: 0 listed, 2 bad usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const robots = await withFleet(args, (store, fleet) => listRobots(store, fleet, tenantId));
    const rows = robots.map((r) => ({
      robotId: r.robotId,
      edgeKeyId: r.edgeKeyId,
      commandKid: r.commandKid,
      profileDigest: r.profileDigest,
      firmwareManifests: r.firmwareManifests.length,
      createdAt: new Date(r.createdAtMs).toISOString(),
      retiredAt: r.retiredAtMs === null ? null : new Date(r.retiredAtMs).toISOString(),
    }));
    if (args.options.json) io.out(JSON.stringify({ robots: rows }));
    else {
      for (const r of rows) {
        io.out(
          `${r.robotId}  ${r.edgeKeyId}  kid ${r.commandKid}  profile ${r.profileDigest.slice(0, 12)}…  ${r.retiredAt ? `retired ${r.retiredAt}` : 'active'}`,
        );
      }
      if (rows.length === 0) io.out('(no robots)');
    }
    return 0;
  },
};

export const robotRetireCommand: Command = {
  path: ['cloud', 'robot', 'retire'],
  summary: 'Retire a robot (its edge key is revoked)',
  usage: '--tenant ID ROBOT_ID [--db …] [--json]',
  description:
    "Retires the robot and revokes its edge key in one audited change; the robot's shipped records stay in\n" +
    'the log. Exit codes: 0 retired, 2 no such active robot, bad usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  positionals: [1, 1],
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const robotId = args.positionals[0]!;
    const auditIndex = await withFleet(args, (store, fleet) => retireRobot(store, fleet, tenantId, robotId));
    io.out(args.options.json ? JSON.stringify({ robotId, retired: true, auditIndex }) : `retired ${robotId}`);
    return 0;
  },
};
