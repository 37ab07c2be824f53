/**
 * Which frames may speak for which source (sensor-keys.ts), through the telemetry store the gates read,
 * plus the start-up and profile checks that keep an authenticated source from being unusable.
 */
import { randomBytes } from 'node:crypto';
import { hmacKeyId, signTelemetryFrame } from '@pentagate/crypto';
import type { RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import t from 'tap';
import { crossFieldProblems } from '../../src/profile/cross-checks.js';
import { sensorKeyProblems } from '../../src/telemetry/sensor-keys.js';
import { TelemetryStore } from '../../src/telemetry/telemetry-store.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';

const lidarKey = new Uint8Array(randomBytes(32));
const jointsKey = new Uint8Array(randomBytes(32));
const base = armFixture({ proximityKey: lidarKey }).profile;
// joints: unauthenticated but bound to its own key; battery: unsigned and unbound.
const profile: RobotProfile = {
  ...base,
  sources: base.sources.map((s) => (s.name === 'joints' ? { ...s, macKeyId: hmacKeyId(jointsKey) } : s)),
};
const keys = new Map([
  [hmacKeyId(lidarKey), lidarKey],
  [hmacKeyId(jointsKey), jointsKey],
]);
const now = Date.now();
const proximity = (seq: number, nearestHumanM: number | null): TelemetryFrame => ({
  v: 1,
  robotId: 'r1',
  source: 'proximity',
  kind: 'proximity',
  seq,
  stampMs: now,
  nearestHumanM,
});
const battery: TelemetryFrame = {
  v: 1,
  robotId: 'r1',
  source: 'battery',
  kind: 'battery',
  seq: 1,
  stampMs: now,
  voltageV: 48,
  currentA: 2,
  stateOfCharge: 0.9,
};

function refusal(store: TelemetryStore, frame: unknown): string | undefined {
  const r = store.ingest(frame, now);
  return r.accepted ? undefined : `${r.reason}: ${r.detail}`;
}

t.test('an authenticated source takes only frames signed by its own key', async (t) => {
  const store = new TelemetryStore(profile, keys);
  t.equal(refusal(store, signTelemetryFrame(lidarKey, proximity(1, 0.5))), undefined, 'signed: accepted');
  t.match(refusal(store, proximity(2, null)), /^unauthenticated: proximity: unsigned frame/);
  t.match(
    refusal(store, signTelemetryFrame(jointsKey, proximity(3, null))),
    /^unauthenticated: proximity: signed by key [0-9a-f]{16}, but this source's key is/,
    "another source's key",
  );
  const signed = signTelemetryFrame(lidarKey, proximity(4, 0.5));
  t.match(refusal(store, { ...signed, nearestHumanM: null }), /MAC does not match the frame/);
  t.equal(store.rejectionCounts().unauthenticated, 3);
  const latest = store.lookup('proximity', now);
  t.equal(latest.status === 'fresh' && latest.frame.kind === 'proximity' && latest.frame.nearestHumanM, 0.5);
  t.equal(
    store.rejectionCounts()['out-of-order'],
    0,
    'refused before the seq rule could withdraw the reading',
  );
});

t.test('a key the edge does not hold, or one bound to another source, proves nothing', async (t) => {
  const store = new TelemetryStore(profile, new Map([[hmacKeyId(jointsKey), jointsKey]]));
  t.match(
    refusal(store, signTelemetryFrame(lidarKey, proximity(1, 0.5))),
    /which this edge does not hold \(give it with --sensor-key\)/,
  );
  t.match(
    refusal(store, signTelemetryFrame(jointsKey, battery)),
    /signed by key [0-9a-f]{16}, which belongs to joints/,
    'a joints key cannot vouch for the battery',
  );
  const stranger = new Uint8Array(randomBytes(32));
  t.match(refusal(store, signTelemetryFrame(stranger, battery)), /which this edge does not hold/);
  t.equal(refusal(store, battery), undefined, 'an unsigned frame of an unauthenticated source is accepted');
});

t.test(
  'the edge refuses to start without an authenticated source’s key; the profile check names it',
  async (t) => {
    t.same(sensorKeyProblems(profile, keys), []);
    t.match(sensorKeyProblems(profile, new Map()), [
      /^source proximity is authenticated by key [0-9a-f]{16}: give its key file with --sensor-key$/,
    ]);
    const noKeyId: RobotProfile = {
      ...profile,
      sources: profile.sources.map((s) => (s.name === 'proximity' ? { ...s, macKeyId: undefined } : s)),
    };
    t.match(sensorKeyProblems(noKeyId, keys), [/^source proximity is authenticated but names no macKeyId$/]);
    const problems = crossFieldProblems(noKeyId).filter((p) => p.path.endsWith('macKeyId'));
    t.equal(problems.length, 1);
    t.match(problems[0]?.message, /source "proximity" is authenticated: name its sensor key/);
  },
);
