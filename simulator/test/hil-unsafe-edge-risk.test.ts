/**
 * The RISK scenarios (people in the radius, stale/missing/NaN proximity, a base driving at a person) fail
 * against a stand-in edge that signs everything: their expectations can fail.
 */
import t from 'tap';
import { unsafeEdgeFailsGroups } from './helpers/unsafe-edge-runs.js';

t.test('an edge that signs everything fails every RISK scenario', (t) =>
  unsafeEdgeFailsGroups(t, ['risk'], 7),
);
