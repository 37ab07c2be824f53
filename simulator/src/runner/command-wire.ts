/**
 * The command wire between the broker and the motor controller, with an attacker on it. Every frame the edge
 * publishes on `…/cmd` passes through here on its way to the controller (directly, or down a serial line);
 * the attacker records what it sees and, when the timeline says so, injects:
 *
 * - `tampered`: the last command with its setpoints changed and the MAC kept → `bad-mac`;
 * - `replayed`: the last command again, byte for byte → `replayed-seq` (or `stale-epoch` after a STOP);
 * - `expired`: holds the next command back until after its `validUntil` → `expired`;
 * - `wrong-epoch`: a recorded command from before the last STOP's epoch bump → `stale-epoch`;
 * - `unsigned`: the last command with an all-zero MAC → `bad-mac`;
 * - `unknown-key`: a fresh move signed with the attacker's own key → `unknown-kid`;
 * - `wrong-robot`: the last command addressed to another robot → `wrong-robot`.
 */
import { randomBytes } from 'node:crypto';
import { hmacKeyId, signMotorCommand } from '@pentagate/crypto';
import { type MotorCommand, type UnsignedMotorCommand, toBase64Url } from '@pentagate/protocol';
import type { Attack } from '../scenarios/scenario-schema.js';

export type DeliverFrame = (frame: string, via: string) => void;

/** Which controller rejection reason each attack should produce. */
export const ATTACK_REJECTION: Record<Attack, string> = {
  tampered: 'bad-mac',
  replayed: 'replayed-seq',
  expired: 'expired',
  'wrong-epoch': 'stale-epoch',
  unsigned: 'bad-mac',
  'unknown-key': 'unknown-kid',
  'wrong-robot': 'wrong-robot',
};

function parse(frame: string): MotorCommand | undefined {
  try {
    return JSON.parse(frame) as MotorCommand;
  } catch {
    return undefined;
  }
}

export class CommandWire {
  readonly #deliver: DeliverFrame;
  readonly #clock: () => number;
  readonly #seen: MotorCommand[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #holdNext = false;
  /**
   * Attacks that had nothing to work with yet (no command, or no command of an older epoch, seen so far):
   * the attacker tries again after each frame it sees, as a real one would wait for material.
   */
  readonly #waiting: Attack[] = [];
  injected = 0;

  constructor(deliver: DeliverFrame, clock: () => number = Date.now) {
    this.#deliver = deliver;
    this.#clock = clock;
  }

  /** A frame the edge published. */
  fromEdge(frame: string): void {
    const command = parse(frame);
    if (command) this.#seen.push(command);
    if (this.#holdNext && command && command.setpoints?.kind !== 'stop') {
      this.#holdNext = false;
      const delayMs = Math.max(0, command.validUntil - this.#clock()) + 30;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.injected++;
        this.#deliver(frame, 'attacker:expired');
      }, delayMs);
      this.#timers.add(timer);
      return;
    }
    this.#deliver(frame, 'edge');
    for (const attack of this.#waiting.splice(0)) this.inject(attack);
  }

  /** Attacks that never found anything to work with during the run (reported as not delivered). */
  get skipped(): Attack[] {
    return [...this.#waiting];
  }

  inject(attack: Attack): void {
    if (attack === 'expired') {
      this.#holdNext = true;
      return;
    }
    const frame = this.#forge(attack);
    if (frame === undefined) {
      this.#waiting.push(attack);
      return;
    }
    this.injected++;
    this.#deliver(frame, `attacker:${attack}`);
  }

  #forge(attack: Exclude<Attack, 'expired'>): string | undefined {
    const last = this.#seen[this.#seen.length - 1];
    if (attack === 'unknown-key') {
      const key = new Uint8Array(randomBytes(32));
      const nowMs = this.#clock();
      const base = last ?? undefined;
      if (!base) return undefined;
      const unsigned: UnsignedMotorCommand = {
        v: 1,
        kid: hmacKeyId(key),
        robotId: base.robotId,
        epoch: base.epoch + 1,
        seq: base.seq + 1000,
        issuedAt: nowMs,
        validUntil: nowMs + 1000,
        intentId: 'attacker-move',
        setpoints: {
          kind: 'twist',
          linearMps: { x: 1, y: 0, z: 0 },
          angularRadS: { x: 0, y: 0, z: 0 },
          durationMs: 500,
        },
        cfgDigest: base.cfgDigest,
        evidenceDigest: base.evidenceDigest,
      };
      return JSON.stringify(signMotorCommand(key, unsigned));
    }
    if (attack === 'wrong-epoch') {
      const newest = this.#seen.reduce((m, c) => Math.max(m, c.epoch), 0);
      const old = this.#seen.find((c) => c.epoch < newest);
      return old ? JSON.stringify(old) : undefined;
    }
    if (!last) return undefined;
    switch (attack) {
      case 'replayed':
        return JSON.stringify(last);
      case 'unsigned':
        return JSON.stringify({ ...last, mac: toBase64Url(new Uint8Array(32)) });
      case 'wrong-robot':
        return JSON.stringify({ ...last, robotId: `${last.robotId}-x` });
      case 'tampered': {
        const sp = last.setpoints;
        const setpoints =
          sp.kind === 'joint'
            ? {
                ...sp,
                points: sp.points.map((p) => ({ ...p, positionsRad: p.positionsRad.map((q) => q + 0.5) })),
              }
            : sp.kind === 'twist'
              ? { ...sp, linearMps: { ...sp.linearMps, x: sp.linearMps.x * 3 + 0.5 } }
              : { ...sp, reason: 'resume' };
        return JSON.stringify({ ...last, seq: last.seq + 1, setpoints });
      }
    }
  }

  close(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
}
