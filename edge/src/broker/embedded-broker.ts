/**
 * The embedded MQTT broker (`--mqtt embedded:PORT`): aedes 1.x, MQTT 3.1.1, with username/password
 * authentication against scrypt hashes (password-checker.ts) and the role and leaf rules of
 * topic-rules.ts. It exists so a single machine runs the edge without installing Mosquitto; any external
 * broker works the same way through the MQTT client adapter, with the ACL written by mosquitto-acl.ts.
 *
 * Memory is bounded before authentication: packets above `maxPacketBytes` close the connection as their
 * length field arrives (packet-size-guard.ts), sockets without an accepted CONNECT are capped apart from
 * authenticated clients (pending-connections.ts), so that nobody who has not logged in can take the
 * `maxConnections` slots of those who have, a socket that sends no CONNECT within `connectTimeoutMs` is
 * closed, and a subscriber that stops reading is disconnected after `drainTimeoutMs` (it would stall every
 * delivery).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { type BrokerUser, loadBrokerUsers } from './broker-users.js';
import { guardPacketSize } from './packet-size-guard.js';
import { PasswordChecker, type PasswordCheckerOptions } from './password-checker.js';
import { PendingConnections } from './pending-connections.js';
import type { BrokerIdentity } from './topic-rules.js';

/** Largest MQTT packet, bytes after the fixed header: the node's 64 KiB inbound limit plus topic and slack. */
export const DEFAULT_MAX_PACKET_BYTES = 128 * 1024;
/** Authenticated clients at most. */
export const DEFAULT_MAX_CONNECTIONS = 128;
/**
 * Authenticated clients of one account at most: a robot computer opens a few per account (a planner, a
 * telemetry publisher, a reconnect overlapping its old session). Without it one account's password could take
 * every slot and lock the proximity sensor, the operator and a reconnecting controller out (outside review).
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ACCOUNT = 16;
/**
 * Time a socket has to send its CONNECT, ms. MQTT 3.1.1 §3.1 / 5.0 §3.1: CONNECT is the first packet
 * [MQTT-3.1.0-1], sent as soon as the network connection is up, and a server should close a connection
 * that sends none within a reasonable time. A client sends it within a round trip; an idle socket held
 * open is the attack, so this is short.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
/** Sockets without an accepted CONNECT kept past their grace, in total and per remote address. */
export const DEFAULT_MAX_PENDING_CONNECTIONS = 32;
export const DEFAULT_MAX_PENDING_PER_ADDRESS = 8;
/** Time a new socket is safe from the pending caps while its CONNECT arrives, ms. */
export const DEFAULT_PENDING_GRACE_MS = 200;
/** Pending sockets at most, as a multiple of `maxPendingConnections` (memory bound under a flood). */
const PENDING_HARD_LIMIT_FACTOR = 8;
/**
 * Longest a subscriber's full socket may hold a delivery, ms; then it is disconnected. aedes finishes a delivery
 * only once the socket drained, and its deliveries in flight are few and shared by the whole broker: a
 * subscriber that stops reading (any account that may subscribe to verdicts) stalled every message, STOPs
 * included, for aedes' default of 60 s. A client keeping up never has megabytes queued for this long.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 200;

export interface EmbeddedBrokerOptions {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /** Interface to bind; loopback unless the robot sits on another machine. */
  host?: string;
  users: BrokerUser[];
  /** Largest packet accepted, bytes of Remaining Length (default 128 KiB); larger closes the connection. */
  maxPacketBytes?: number;
  /**
   * Authenticated clients at most (default 128); a further login is answered CONNACK 3 (server unavailable).
   * Not limited per address: on a robot most clients connect from 127.0.0.1.
   */
  maxConnections?: number;
  /** Authenticated clients of one account at most (default 16); a further login of it is answered CONNACK 3. */
  maxConnectionsPerAccount?: number;
  /** Time a new socket has to send its CONNECT, ms (default 2000); then it is closed. */
  connectTimeoutMs?: number;
  /**
   * Sockets without an accepted CONNECT kept past `pendingGraceMs` (default 32); over it, the oldest that
   * has not sent its CONNECT is closed. Up to 8 times as many are held while in their grace.
   */
  maxPendingConnections?: number;
  /** The same cap per remote address (default 8). */
  maxPendingPerAddress?: number;
  /** Time a new socket is safe from the pending caps while its CONNECT arrives, ms (default 200). */
  pendingGraceMs?: number;
  /** Longest a subscriber's full socket may hold a delivery before it is disconnected, ms (default 200). */
  drainTimeoutMs?: number;
  /** Password-check throttling (defaults in password-checker.ts). */
  passwordChecks?: PasswordCheckerOptions;
  /** Called when the broker closes a connection for a reason worth logging. */
  onRefusal?: (event: BrokerRefusal) => void;
}

export interface BrokerRefusal {
  reason:
    | 'packet-too-large'
    | 'too-many-connections'
    | 'too-many-account-connections'
    | 'too-many-pending'
    | 'connect-timeout'
    | 'auth-throttled'
    | 'auth-busy';
  address: string | undefined;
  detail: string;
}

export interface EmbeddedBroker {
  readonly host: string;
  readonly port: number;
  /** `mqtt://host:port` for clients. */
  readonly url: string;
  /** Number of clients currently connected (past CONNACK). */
  connectedClients(): number;
  /** Sockets open without an accepted CONNECT. */
  pendingConnections(): number;
  /** Password checks so far: scrypt derivations, refusals by back-off or a full queue, remembered hits. */
  passwordStats(): Readonly<PasswordChecker['stats']>;
  close(): Promise<void>;
}

// CONNACK return codes, MQTT 3.1.1 §3.2.2.3 (Table 3.1).
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The user a client id belongs to: the username it is, or the longest one it starts with followed by `-`.
 * A client may only use its own ids. Otherwise a robot could connect with the edge's client id and, by
 * [MQTT-3.1.4-2] (the server disconnects the existing client with the same id), knock the edge off the
 * broker — and so could a user whose name is the start of another's (`edge` and `edge-arm1`,
 * `arm1` and `arm1-controller`), were `<username>-…` enough.
 */
function clientIdOwner(clientId: string, usernames: Iterable<string>): string | undefined {
  let owner: string | undefined;
  for (const name of usernames) {
    const fits = clientId === name || clientId.startsWith(`${name}-`);
    if (fits && (owner === undefined || name.length > owner.length)) owner = name;
  }
  return owner;
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new EdgeRuntimeError('BROKER_CONFIG_INVALID', `${what}: expected a positive integer, got ${value}`);
  }
  return value;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') {
        reject(
          new EdgeRuntimeError(
            'PORT_IN_USE',
            `port ${port} is in use: pass --mqtt embedded:PORT with another port`,
          ),
        );
      } else {
        reject(new EdgeRuntimeError('PORT_IN_USE', `cannot listen on ${host}:${port}: ${err.message}`));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Starts aedes on a TCP port with authentication and role and leaf authorization. */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const host = options.host ?? '127.0.0.1';
  const maxPacketBytes = positiveInteger(
    options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES,
    'maxPacketBytes',
  );
  const maxConnections = positiveInteger(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, 'maxConnections');
  const maxPerAccount = positiveInteger(
    options.maxConnectionsPerAccount ?? DEFAULT_MAX_CONNECTIONS_PER_ACCOUNT,
    'maxConnectionsPerAccount',
  );
  const connectTimeoutMs = positiveInteger(
    options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    'connectTimeoutMs',
  );
  const maxPending = positiveInteger(
    options.maxPendingConnections ?? DEFAULT_MAX_PENDING_CONNECTIONS,
    'maxPendingConnections',
  );
  const maxPendingPerAddress = positiveInteger(
    options.maxPendingPerAddress ?? DEFAULT_MAX_PENDING_PER_ADDRESS,
    'maxPendingPerAddress',
  );
  const pendingGraceMs = positiveInteger(
    options.pendingGraceMs ?? DEFAULT_PENDING_GRACE_MS,
    'pendingGraceMs',
  );
  const users = await loadBrokerUsers(options.users);
  const hashes = new Map([...users.byName].map(([name, user]) => [name, user.passwordHash]));
  const passwords = new PasswordChecker(hashes, users.proven, options.passwordChecks);
  const identities = new WeakMap<Client, BrokerIdentity>();
  const pendingRefusals = new Set<NodeJS.Timeout>();
  const refuse = (event: BrokerRefusal) => options.onRefusal?.(event);
  const pendingLimit = maxPending * PENDING_HARD_LIMIT_FACTOR;
  const pending = new PendingConnections(
    { maxPending, maxPendingPerAddress, graceMs: pendingGraceMs, hardLimit: pendingLimit },
    (_socket, address, why) =>
      refuse({
        reason: 'too-many-pending',
        address,
        detail:
          why === 'per-address'
            ? `more than ${maxPendingPerAddress} connections from this address without a CONNECT`
            : why === 'total'
              ? `more than ${maxPending} connections without a CONNECT`
              : `${pendingLimit} connections without an accepted CONNECT`,
      }),
  );
  // Sockets whose CONNECT was accepted, with their client id and account; a slot is taken when the password
  // is, before CONNACK.
  const authenticated = new Map<Socket, { clientId: string; username: string }>();

  const aedes = await Aedes.createBroker({
    connectTimeout: connectTimeoutMs,
    drainTimeout: positiveInteger(options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS, 'drainTimeoutMs'),
    // Called as the CONNECT is parsed, before authentication: from here the socket is not closed for the
    // pending caps (its login is under way; the password checks bound that work).
    preConnect(client, _packet, callback) {
      pending.connectReceived(client.conn as Socket);
      callback(null, true);
    },
    // [MQTT-3.1.2-19], [MQTT-3.1.2-21]: a CONNECT without a username or password is refused below.
    authenticate(client, username, password, done) {
      const user = username === undefined ? undefined : users.byName.get(username);
      const address =
        client.conn && 'remoteAddress' in client.conn ? String(client.conn.remoteAddress) : 'unknown';
      passwords.check(username, password?.toString('utf8') ?? '', address).then(
        (outcome) => {
          if (outcome === 'throttled' || outcome === 'busy') {
            refuse({
              reason: outcome === 'busy' ? 'auth-busy' : 'auth-throttled',
              address,
              detail:
                outcome === 'busy' ? 'password checks queue full' : 'address in back-off after failed logins',
            });
            // Held, not answered at once: a flooding client that reconnects on every CONNACK would otherwise
            // cost the broker a connection setup per refusal, as fast as it can loop.
            const timer = setTimeout(
              () => {
                pendingRefusals.delete(timer);
                done(authError('try again later', SERVER_UNAVAILABLE), null);
              },
              passwords.refusalDelayMs(address, outcome),
            );
            pendingRefusals.add(timer);
            return;
          }
          if (!user || outcome !== 'ok')
            return done(authError('bad user name or password', BAD_USERNAME_OR_PASSWORD), null);
          if (clientIdOwner(client.id, users.byName.keys()) !== user.username) {
            return done(
              authError(
                `client id must be "${user.username}" or start with "${user.username}-", and not be another user's`,
                IDENTIFIER_REJECTED,
              ),
              null,
            );
          }
          const socket = client.conn as Socket;
          // A takeover of a connected client id frees that client's slot ([MQTT-3.1.4-2]), so it is let in.
          const sessions = [...authenticated.values()];
          const takeover = sessions.some((a) => a.clientId === client.id);
          if (authenticated.size >= maxConnections && !takeover) {
            refuse({ reason: 'too-many-connections', address, detail: `limit ${maxConnections} clients` });
            return done(authError('too many clients', SERVER_UNAVAILABLE), null);
          }
          const ofAccount = sessions.filter((a) => a.username === user.username).length;
          if (ofAccount >= maxPerAccount && !takeover) {
            refuse({
              reason: 'too-many-account-connections',
              address,
              detail: `${user.username}: limit ${maxPerAccount} clients per account`,
            });
            return done(authError('too many clients of this account', SERVER_UNAVAILABLE), null);
          }
          if (socket.destroyed) return done(authError('connection closed', SERVER_UNAVAILABLE), null);
          pending.leave(socket);
          authenticated.set(socket, { clientId: client.id, username: user.username });
          identities.set(client, user);
          done(null, true);
        },
        (err: Error) => done(authError(err.message, BAD_USERNAME_OR_PASSWORD), null),
      );
    },
    authorizePublish(client, packet, callback) {
      // client is null for the broker's own $SYS heartbeats.
      if (client === null) return callback(null);
      const identity = identities.get(client);
      if (identity && users.policy.mayPublish(identity, packet.topic, packet.retain)) return callback(null);
      // [MQTT-3.3.5-2]: MQTT 3.1.1 cannot refuse a PUBLISH in-band, so the server closes the
      // connection; the message is never delivered.
      callback(new Error(`${identity?.username ?? 'client'} may not publish to ${packet.topic}`));
    },
    authorizeSubscribe(client, subscription, callback) {
      const identity = identities.get(client);
      if (identity && users.policy.maySubscribe(identity, subscription.topic))
        return callback(null, subscription);
      // A null subscription makes aedes answer 0x80 (Failure) for this filter in the SUBACK
      // ([MQTT-3.9.3-2], return codes in §3.9.3), leaving the connection and other filters intact.
      callback(null, null);
    },
  });

  // noDelay: a STOP is one small packet; Nagle's algorithm would hold it behind an unacknowledged
  // earlier write until the peer's delayed ACK (~40 ms on Linux), twenty times the 2 ms budget.
  const server = createServer({ noDelay: true }, (socket) => {
    if (!pending.admit(socket)) return;
    socket.once('close', () => {
      pending.leave(socket);
      authenticated.delete(socket);
    });
    guardPacketSize(socket, maxPacketBytes, (declared) =>
      refuse({
        reason: 'packet-too-large',
        address: socket.remoteAddress,
        detail: `declared ${declared} bytes, limit ${maxPacketBytes}`,
      }),
    );
    aedes.handle(socket);
  });
  // A backstop only: Node closes sockets beyond this on accept, before any byte is read. The two kinds are
  // capped apart above, so an unauthenticated flood never reaches it and never takes a client's slot.
  server.maxConnections = maxConnections + pendingLimit + 1;
  server.on('drop', (data) =>
    refuse({
      reason: 'too-many-connections',
      address: data?.remoteAddress,
      detail: `limit ${server.maxConnections} open sockets`,
    }),
  );
  // Before a CONNECT the client has no id, and aedes reports its errors as connection errors.
  aedes.on('connectionError', (client, err) => {
    if (err.message === 'connect did not arrive in time') {
      refuse({
        reason: 'connect-timeout',
        address: (client.conn as Socket).remoteAddress,
        detail: `no CONNECT within ${connectTimeoutMs} ms`,
      });
    }
  });
  try {
    await listen(server, options.port, host);
  } catch (err) {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  let closed: Promise<void> | undefined;

  return {
    host,
    port,
    url: `mqtt://${host.includes(':') ? `[${host}]` : host}:${port}`,
    connectedClients: () => aedes.connectedClients,
    pendingConnections: () => pending.size,
    passwordStats: () => ({ ...passwords.stats }),
    close() {
      for (const timer of pendingRefusals) clearTimeout(timer);
      pendingRefusals.clear();
      pending.stop();
      closed ??= new Promise<void>((resolve) => {
        aedes.close(() => server.close(() => resolve()));
      });
      return closed;
    },
  };
}
