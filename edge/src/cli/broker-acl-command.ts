/** `pentagate edge broker-acl`: the Mosquitto ACL for a broker users file, from the embedded broker's rules. */
import { type Command, ExitCode, requireOption, UsageError } from '@pentagate/protocol';
import { validateBrokerIdentities } from '../broker/broker-users.js';
import { mosquittoAcl } from '../broker/mosquitto-acl.js';
import { withProfilePublishers } from '../broker/profile-publishers.js';
import { loadRobotProfile } from '../profile/load-profile.js';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { optionalString, readJsonFile, writeNewFile } from './cli-values.js';

export const brokerAclCommand: Command = {
  path: ['edge', 'broker-acl'],
  summary: 'Write the Mosquitto ACL for a broker users file (the embedded broker’s rules)',
  usage: '--users FILE [--profile FILE] [--out FILE]',
  description: [
    'Reads the users file (the --broker-users JSON array; passwords are not needed and not read) and prints',
    'the acl_file for Mosquitto: each account may publish and subscribe exactly what the embedded broker',
    'allows its role (edge, sensor, planner, controller, robot, simulator, operator, watcher) and sources.',
    'For an external broker, list the edge account too ({ "username", "role": "edge", "robotId" }).',
    'With --profile, each source the profile binds to a publisher (sources[].publisher) is closed to every',
    'other account of that robot, exactly as the embedded broker does under edge run.',
    '',
    'Exit codes: 0 written; 2 unreadable or invalid users file, or --out exists.',
  ].join('\n'),
  options: {
    users: { type: 'string', description: 'Broker users (JSON array)', valueName: 'FILE' },
    profile: {
      type: 'string',
      description: 'Robot profile whose sources[].publisher bindings apply',
      valueName: 'FILE',
    },
    out: { type: 'string', description: 'Write here (a new file) instead of stdout', valueName: 'FILE' },
  },
  async run(args, io) {
    const path = requireOption(args, 'users');
    const users = await readJsonFile(path, 'users');
    if (!Array.isArray(users)) throw new UsageError(`--users: expected a JSON array of users in ${path}`);
    const profilePath = optionalString(args, 'profile');
    let acl: string;
    try {
      const bound =
        profilePath === undefined ? users : withProfilePublishers(users, loadRobotProfile(profilePath));
      acl = mosquittoAcl(validateBrokerIdentities(bound));
    } catch (err) {
      if (err instanceof EdgeRuntimeError) throw new UsageError(`--users ${path}: ${err.message}`);
      throw err;
    }
    const out = optionalString(args, 'out');
    if (out === undefined) io.out(acl.replace(/\n$/, ''));
    else await writeNewFile(out, acl);
    return ExitCode.ok;
  },
};
