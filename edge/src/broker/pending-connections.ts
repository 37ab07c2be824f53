/**
 * Sockets the embedded broker accepted that have no accepted CONNECT yet ("pending"), kept apart from the
 * authenticated clients so that nobody who has not logged in can take an authenticated client's slot.
 *
 * The attack this answers: idle TCP sockets that never send CONNECT, reopened whenever closed. With one
 * shared connection limit they held every slot, and a valid login (a sensor, the motor controller, an
 * operator reconnecting) was closed on accept. Refusing the newest socket over a pending cap does not help
 * on a robot: most clients connect from 127.0.0.1, the same address as a local attacker, and an attacker
 * that reopens at once wins every free slot from a client that retries once a second.
 *
 * What a real client does that an idle socket does not is send its CONNECT at once: MQTT 3.1.1 §3.1 and
 * 5.0 §3.1 make CONNECT the first packet [MQTT-3.1.0-1], sent as soon as the network connection is up.
 * So, over a cap, the socket closed is the oldest one that has not sent its CONNECT though it has had
 * `graceMs` to do so; a socket whose CONNECT arrived (being authenticated) is never closed for a cap, and a
 * newcomer always gets its grace. An attacker's idle sockets are then the ones closed, however fast it
 * reopens them, and a client that logs in at once gets in. `hardLimit` bounds memory whatever happens:
 * beyond it the oldest silent socket is closed even inside its grace, and, were none silent, the newcomer.
 */
import type { Socket } from 'node:net';

export interface PendingLimits {
  /** Pending sockets kept past their grace, in total. */
  maxPending: number;
  /** Pending sockets kept past their grace, per remote address. */
  maxPendingPerAddress: number;
  /** Time a new socket has to send its CONNECT before it may be closed for a cap, ms. */
  graceMs: number;
  /** Pending sockets at most, silent or not; beyond, one is closed at once. */
  hardLimit: number;
}

export type PendingClose = 'per-address' | 'total' | 'hard-limit';

interface Entry {
  readonly socket: Socket;
  readonly address: string;
  readonly acceptedAt: number;
  connectSeen: boolean;
}

export class PendingConnections {
  readonly #limits: PendingLimits;
  readonly #onClose: (socket: Socket, address: string, why: PendingClose) => void;
  readonly #clock: () => number;
  /** In accept order, so the first silent entry found is the oldest. */
  readonly #entries = new Map<Socket, Entry>();
  readonly #byAddress = new Map<string, Set<Entry>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    limits: PendingLimits,
    onClose: (socket: Socket, address: string, why: PendingClose) => void,
    clock: () => number = () => performance.now(),
  ) {
    this.#limits = limits;
    this.#onClose = onClose;
    this.#clock = clock;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A socket just accepted. Returns false when it was closed at once (the hard limit, nothing silent). */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? 'unknown';
    const entry: Entry = { socket, address, acceptedAt: this.#clock(), connectSeen: false };
    this.#entries.set(socket, entry);
    let group = this.#byAddress.get(address);
    if (!group) {
      group = new Set();
      this.#byAddress.set(address, group);
    }
    group.add(entry);
    if (this.#entries.size > this.#limits.hardLimit) {
      const victim = this.#oldestSilent(this.#entries.values(), Number.POSITIVE_INFINITY) ?? entry;
      this.#close(victim, 'hard-limit');
      if (victim === entry) return false;
    }
    this.#enforce(address);
    return true;
  }

  /** Its CONNECT arrived: it is being authenticated and is no longer closed for a cap. */
  connectReceived(socket: Socket): void {
    const entry = this.#entries.get(socket);
    if (entry) entry.connectSeen = true;
  }

  /** Authenticated, or closed: no longer pending. */
  leave(socket: Socket): void {
    const entry = this.#entries.get(socket);
    if (!entry) return;
    this.#entries.delete(socket);
    const group = this.#byAddress.get(entry.address);
    group?.delete(entry);
    if (group?.size === 0) this.#byAddress.delete(entry.address);
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The oldest entry that has not sent its CONNECT and was accepted at or before `acceptedBy`. */
  #oldestSilent(entries: Iterable<Entry>, acceptedBy: number): Entry | undefined {
    for (const entry of entries) {
      if (entry.acceptedAt > acceptedBy) return undefined;
      if (!entry.connectSeen) return entry;
    }
    return undefined;
  }

  #close(entry: Entry, why: PendingClose): void {
    this.leave(entry.socket);
    entry.socket.destroy();
    this.#onClose(entry.socket, entry.address, why);
  }

  /** Closes silent sockets past their grace while a cap is exceeded; checks again when one comes of age. */
  #enforce(address?: string): void {
    const { maxPending, maxPendingPerAddress, graceMs } = this.#limits;
    const ripe = this.#clock() - graceMs;
    const addresses = address === undefined ? [...this.#byAddress.keys()] : [address];
    for (const a of addresses) {
      for (;;) {
        const group = this.#byAddress.get(a);
        if (!group || group.size <= maxPendingPerAddress) break;
        const victim = this.#oldestSilent(group, ripe);
        if (!victim) break;
        this.#close(victim, 'per-address');
      }
    }
    while (this.#entries.size > maxPending) {
      const victim = this.#oldestSilent(this.#entries.values(), ripe);
      if (!victim) break;
      this.#close(victim, 'total');
    }
    this.#schedule();
  }

  /** While over a cap with silent sockets still in their grace, looks again when the oldest comes of age. */
  #schedule(): void {
    if (this.#timer) return;
    let over = this.#entries.size > this.#limits.maxPending;
    if (!over) {
      for (const group of this.#byAddress.values()) {
        if (group.size > this.#limits.maxPendingPerAddress) {
          over = true;
          break;
        }
      }
    }
    if (!over) return;
    // Silent sockets already past their grace and still open are not over any cap; the next to come of age is.
    const now = this.#clock();
    let next: Entry | undefined;
    for (const entry of this.#entries.values()) {
      if (!entry.connectSeen && entry.acceptedAt + this.#limits.graceMs > now) {
        next = entry;
        break;
      }
    }
    if (!next) return;
    const wait = next.acceptedAt + this.#limits.graceMs - now;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#enforce();
    }, wait + 1);
    this.#timer.unref();
  }
}
