/** What the fleet routes need, built once by registerFleet. */
import type { Counter } from 'prom-client';
import type { CloudContext } from '../app/context.js';
import type { FleetStore } from '../store/fleet-store.js';
import type { ConsentWakeups } from './consent-relay.js';
import type { LiveHub } from './live-hub.js';

export interface FleetContext {
  cloud: CloudContext;
  store: FleetStore;
  live: LiveHub;
  /** Wakes edges' held consent requests when a token is stored. */
  consentWakeups: ConsentWakeups;
  /** Chain refusals by kind (gap, fork, wrong-robot): an alarm an operator scrapes. */
  alarms: Counter<'kind'>;
  nowMs: () => number;
  /** How often an open live stream checks that its API key is still valid, ms. */
  liveKeyCheckMs: number;
  /**
   * Leaves the other replicas' live events (live-fanout.ts); gives back the listening connection, so it runs
   * before the store closes (a PostgreSQL pool ends only once every connection is back).
   */
  leaveFanout: () => Promise<void>;
}
