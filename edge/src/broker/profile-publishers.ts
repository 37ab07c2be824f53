/**
 * A profile may bind each telemetry source to the one broker account that publishes it
 * (`sources[].publisher`). The binding is added to that account's `sources` before the user table is
 * validated, so the embedded broker and the Mosquitto ACL written from the same table (topic-rules.ts,
 * mosquitto-acl.ts) both close the source to every other account of the robot — including `robot` and
 * `simulator` accounts, which otherwise publish every unbound source.
 */
import type { RobotProfile } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { ROLE_RIGHTS, type BrokerRole } from './topic-rules.js';

interface UserEntry {
  username?: unknown;
  role?: unknown;
  robotId?: unknown;
  sources?: unknown;
}

function invalid(message: string): EdgeRuntimeError {
  return new EdgeRuntimeError('BROKER_CONFIG_INVALID', message);
}

/** The users with each profile binding added to its publisher's `sources`; the input is not changed. */
export function withProfilePublishers<U extends UserEntry>(
  users: readonly U[],
  profile: Pick<RobotProfile, 'robotId' | 'sources'>,
): U[] {
  const out = users.map((u) => ({ ...u }));
  for (const source of profile.sources) {
    if (source.publisher === undefined) continue;
    const where = `profile source ${source.name} names publisher "${source.publisher}"`;
    const user = out.find((u) => u.username === source.publisher);
    if (!user) throw invalid(`${where}, which is not in the broker users`);
    if (user.robotId !== profile.robotId) {
      throw invalid(`${where}, which is not an account of robot ${profile.robotId}`);
    }
    const rights = ROLE_RIGHTS[user.role as BrokerRole];
    if (!rights || rights.telemetry === 'none') {
      throw invalid(`${where}, whose role ${String(user.role)} publishes no telemetry`);
    }
    const other = out.find(
      (u) =>
        u !== user &&
        u.robotId === profile.robotId &&
        Array.isArray(u.sources) &&
        (u.sources as unknown[]).includes(source.name),
    );
    if (other) throw invalid(`${where}, but the broker users bind it to "${String(other.username)}"`);
    const listed = Array.isArray(user.sources) ? (user.sources as unknown[]) : [];
    if (!listed.includes(source.name)) user.sources = [...listed, source.name];
  }
  return out;
}
