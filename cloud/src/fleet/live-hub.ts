/**
 * The live view's fan-out: events of a tenant's robots (verdict summaries from accepted edge records,
 * chain alarms) handed to whoever listens on that tenant, optionally one robot. In memory, per replica:
 * a listener sees what the replica it is connected to ingests (README "Limits").
 */
import type { VerdictOutcome } from '@pentagate/protocol';
import { OpenPerKey } from '../app/open-per-key.js';

export interface VerdictSummary {
  type: 'verdict';
  robotId: string;
  /** The record's index in the robot's outbox and its audit log index in the cloud. */
  recordIndex: number;
  auditIndex: number;
  outcome: VerdictOutcome;
  atMs: number;
  intentId?: string;
  commandSeq?: number;
  commandEpoch?: number;
  violations: string[];
}

export interface ChainAlarm {
  type: 'alarm';
  robotId: string;
  kind: string;
  message: string;
  atMs: number;
}

/** A robot consent request entering the approvals queue, granted or denied by an operator, or closed by its edge. */
export interface ConsentEvent {
  type: 'consent';
  robotId: string;
  intentId: string;
  intentDigest: string;
  scope: string;
  state: 'waiting' | 'granted' | 'denied' | 'closed';
  operatorId?: string;
  atMs: number;
}

export type LiveEvent = VerdictSummary | ChainAlarm | ConsentEvent;

type Listener = (event: LiveEvent) => void;

export class LiveHub {
  readonly #listeners = new Map<string, Set<{ robotId: string | undefined; listener: Listener }>>();
  /** Open streams per API key id (live-stream.ts bounds them). */
  readonly #streams = new OpenPerKey();

  /** Registers a listener; returns the function that removes it. */
  subscribe(tenantId: string, robotId: string | undefined, listener: Listener): () => void {
    let set = this.#listeners.get(tenantId);
    if (!set) {
      set = new Set();
      this.#listeners.set(tenantId, set);
    }
    const entry = { robotId, listener };
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0) this.#listeners.delete(tenantId);
    };
  }

  /** Events published here also go to `relay` (the other replicas, live-fanout.ts). */
  #relay: ((tenantId: string, event: LiveEvent) => void) | undefined;

  relayTo(relay: ((tenantId: string, event: LiveEvent) => void) | undefined): void {
    this.#relay = relay;
  }

  /** An event of this replica: to its listeners and, through the relay, to the other replicas'. */
  publish(tenantId: string, event: LiveEvent): void {
    this.deliver(tenantId, event);
    this.#relay?.(tenantId, event);
  }

  /** An event to this replica's listeners only (one another replica published). */
  deliver(tenantId: string, event: LiveEvent): void {
    for (const { robotId, listener } of this.#listeners.get(tenantId) ?? []) {
      if (robotId === undefined || robotId === event.robotId) listener(event);
    }
  }

  streamsOf(keyId: string): number {
    return this.#streams.of(keyId);
  }

  streamOpened(keyId: string): void {
    this.#streams.opened(keyId);
  }

  streamClosed(keyId: string): void {
    this.#streams.closed(keyId);
  }

  listenerCount(tenantId: string): number {
    return this.#listeners.get(tenantId)?.size ?? 0;
  }
}
