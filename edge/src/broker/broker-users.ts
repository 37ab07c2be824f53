/**
 * The embedded broker's user table: validated once at start, plain passwords hashed at once so only
 * scrypt hashes stay in memory.
 */
import { randomBytes } from 'node:crypto';
import { describeValue } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { hashPassword, parsePasswordHash } from './password-hash.js';
import { type BrokerIdentity, type BrokerRole, isTopicSafeRobotId } from './topic-rules.js';

export interface BrokerUser {
  username: string;
  role: BrokerRole;
  /** The robot this user acts for; required for every role but `operator`. */
  robotId?: string;
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
  /** A hash no password matches, derived against for unknown usernames. */
  dummyHash: string;
}

const ROLES: readonly BrokerRole[] = ['edge', 'robot', 'operator', 'simulator'];

function invalid(index: number, message: string): EdgeRuntimeError {
  return new EdgeRuntimeError('BROKER_CONFIG_INVALID', `broker users[${index}]: ${message}`);
}

/** Validates the user table and hashes clear-text passwords. */
export async function loadBrokerUsers(users: readonly BrokerUser[]): Promise<BrokerUserTable> {
  const byName = new Map<string, LoadedBrokerUser>();
  for (const [i, user] of users.entries()) {
    if (typeof user.username !== 'string' || user.username.length === 0) {
      throw invalid(i, `username: expected a non-empty string, got ${describeValue(user.username)}`);
    }
    if (byName.has(user.username)) throw invalid(i, `username "${user.username}" appears twice`);
    if (!ROLES.includes(user.role)) {
      throw invalid(i, `role: expected one of ${ROLES.join(', ')}, got ${describeValue(user.role)}`);
    }
    if (user.robotId !== undefined && !isTopicSafeRobotId(user.robotId)) {
      throw invalid(
        i,
        `robotId: expected 1-64 letters, digits, '.', '_' or '-' starting with a letter or digit, got ${describeValue(user.robotId)}`,
      );
    }
    if (user.robotId === undefined && user.role !== 'operator') {
      throw invalid(i, `robotId: required for role ${user.role}, got nothing`);
    }
    if ((user.password === undefined) === (user.passwordHash === undefined)) {
      throw invalid(i, 'expected exactly one of password or passwordHash');
    }
    let passwordHash: string;
    if (user.passwordHash !== undefined) {
      parsePasswordHash(user.passwordHash, `broker users[${i}].passwordHash`);
      passwordHash = user.passwordHash;
    } else {
      passwordHash = await hashPassword(user.password as string);
    }
    byName.set(user.username, {
      username: user.username,
      role: user.role,
      ...(user.robotId !== undefined ? { robotId: user.robotId } : {}),
      passwordHash,
    });
  }
  return { byName, dummyHash: await hashPassword(randomBytes(16).toString('hex')) };
}
