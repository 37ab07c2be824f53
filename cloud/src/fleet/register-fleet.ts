/** Wires the fleet into the app: opens the fleet store on the platform store and registers its routes. */
import { Counter } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { openFleetStore } from '../store/open-fleet-store.js';
import type { FleetContext } from './fleet-context.js';
import { registerConsentRoutes } from './consent-routes.js';
import { registerFleetRoutes } from './fleet-routes.js';
import { ConsentWakeups } from './consent-relay.js';
import { startLiveFanout } from './live-fanout.js';
import { LiveHub } from './live-hub.js';
import { DEFAULT_LIVE_KEY_CHECK_MS } from './live-stream.js';

export async function registerFleet(
  app: FastifyInstance,
  cloud: CloudContext,
  options: { nowMs?: () => number; liveKeyCheckMs?: number } = {},
): Promise<FleetContext> {
  const f: FleetContext = {
    cloud,
    store: await openFleetStore(cloud.store),
    live: new LiveHub(),
    consentWakeups: new ConsentWakeups(),
    alarms: new Counter({
      name: 'pentagate_fleet_chain_alarms_total',
      help: "Edge upload alarms: refused uploads (a gap, fork or rewritten record, a record of another robot, another robot's key, a broken command history) and stored commands signed under another profile or command key than the robot was registered with",
      labelNames: ['kind'] as const,
      registers: [cloud.metrics.registry],
    }),
    nowMs: options.nowMs ?? Date.now,
    liveKeyCheckMs: options.liveKeyCheckMs ?? DEFAULT_LIVE_KEY_CHECK_MS,
    leaveFanout: async () => {},
  };
  // the other replicas' events reach this replica's live streams; the app leaves before its store closes
  f.leaveFanout = await startLiveFanout(f.live, cloud.store, (err) =>
    app.log.warn({ err: err.message }, 'live view: an event could not be sent to the other replicas'),
  );
  registerFleetRoutes(app, f);
  registerConsentRoutes(app, f);
  return f;
}
