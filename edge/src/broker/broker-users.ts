/**
 * The broker's user table: who each account is (role, robot, telemetry sources) and, for the embedded
 * broker, its password. Validated once at start; plain passwords are hashed at once so only scrypt hashes
 * stay in memory. The same identity fields feed the Mosquitto ACL (mosquitto-acl.ts).
 */
import { describeValue } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { hashPassword, parsePasswordHash } from './password-hash.js';
import { ProvenPasswords } from './proven-passwords.js';
import {
  BROKER_ROLES,
  type BrokerIdentity,
  type BrokerRole,
  isTopicSafeRobotId,
  isTopicSafeSource,
  ROLE_RIGHTS,
  TopicPolicy,
} from './topic-rules.js';

export interface BrokerUser {
  username: string;
  role: BrokerRole;
  /** The robot this user acts for; required unless the role may be unbound (operator, watcher). */
  robotId?: string;
  /** Telemetry sources this user alone publishes (required for `sensor`). */
  sources?: string[];
  /** A clear-text password, hashed on load (convenient for tests and the demo). */
  password?: string;
  /** An scrypt hash from `hashPassword` (what a deployment stores). */
  passwordHash?: string;
}

export interface LoadedBrokerUser extends BrokerIdentity {
  passwordHash: string;
}

export interface BrokerUserTable {
  byName: ReadonlyMap<string, LoadedBrokerUser>;
  policy: TopicPolicy;
  /** Clear passwords given in the table are known good: remembered as tags, so checking them needs no scrypt. */
  proven: ProvenPasswords;
}

function invalid(index: number, message: string): EdgeRuntimeError {
  return new EdgeRuntimeError('BROKER_CONFIG_INVALID', `broker users[${index}]: ${message}`);
}

/**
 * Checks the identity fields of every entry (not the passwords) and that no telemetry source of a robot
 * is listed by two identities; returns the identities in table order.
 */
export function validateBrokerIdentities(users: readonly unknown[]): BrokerIdentity[] {
  const identities: BrokerIdentity[] = [];
  const names = new Set<string>();
  const owners = new Map<string, string>();
  for (const [i, entry] of users.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw invalid(i, `expected an object, got ${describeValue(entry)}`);
    }
    const user = entry as Partial<BrokerUser>;
    if (typeof user.username !== 'string' || user.username.length === 0) {
      throw invalid(i, `username: expected a non-empty string, got ${describeValue(user.username)}`);
    }
    if (/[\s#+]/.test(user.username)) {
      throw invalid(
        i,
        `username: expected no spaces, '#' or '+' (ACL files cannot hold them), got "${user.username}"`,
      );
    }
    if (names.has(user.username)) throw invalid(i, `username "${user.username}" appears twice`);
    names.add(user.username);
    const role = user.role as BrokerRole;
    if (!BROKER_ROLES.includes(role)) {
      throw invalid(i, `role: expected one of ${BROKER_ROLES.join(', ')}, got ${describeValue(user.role)}`);
    }
    const rights = ROLE_RIGHTS[role];
    if (
      user.robotId !== undefined &&
      (typeof user.robotId !== 'string' || !isTopicSafeRobotId(user.robotId))
    ) {
      throw invalid(
        i,
        `robotId: expected 1-64 letters, digits, '.', '_' or '-' starting with a letter or digit, got ${describeValue(user.robotId)}`,
      );
    }
    if (user.robotId === undefined && !rights.mayBeUnbound) {
      throw invalid(i, `robotId: required for role ${role}, got nothing`);
    }
    const sources = user.sources;
    if (sources !== undefined) {
      if (!Array.isArray(sources) || sources.some((s) => typeof s !== 'string' || !isTopicSafeSource(s))) {
        throw invalid(
          i,
          `sources: expected an array of source names (1-64 letters, digits, '.', '_' or '-'), got ${describeValue(sources)}`,
        );
      }
      if (rights.telemetry === 'none') {
        throw invalid(i, `sources: role ${role} publishes no telemetry; give the sensor its own account`);
      }
      for (const source of sources) {
        const key = `${user.robotId}/${source}`;
        const owner = owners.get(key);
        if (owner !== undefined) {
          throw invalid(i, `sources: "${source}" of robot ${user.robotId} is already bound to "${owner}"`);
        }
        owners.set(key, user.username);
      }
    }
    if (role === 'sensor' && (sources === undefined || sources.length === 0)) {
      throw invalid(i, 'sources: required for role sensor (the telemetry sources it speaks for)');
    }
    identities.push({
      username: user.username,
      role,
      ...(user.robotId !== undefined ? { robotId: user.robotId } : {}),
      ...(sources !== undefined ? { sources: [...sources] } : {}),
    });
  }
  return identities;
}

/** Validates the user table and hashes clear-text passwords. */
export async function loadBrokerUsers(users: readonly BrokerUser[]): Promise<BrokerUserTable> {
  const identities = validateBrokerIdentities(users);
  const byName = new Map<string, LoadedBrokerUser>();
  const proven = new ProvenPasswords();
  for (const [i, identity] of identities.entries()) {
    const user = users[i] as BrokerUser;
    if ((user.password === undefined) === (user.passwordHash === undefined)) {
      throw invalid(i, 'expected exactly one of password or passwordHash');
    }
    let passwordHash: string;
    if (user.passwordHash !== undefined) {
      parsePasswordHash(user.passwordHash, `broker users[${i}].passwordHash`);
      passwordHash = user.passwordHash;
    } else {
      passwordHash = await hashPassword(user.password as string);
      proven.remember(user.username, user.password as string);
    }
    byName.set(identity.username, { ...identity, passwordHash });
  }
  return { byName, policy: new TopicPolicy(identities), proven };
}
