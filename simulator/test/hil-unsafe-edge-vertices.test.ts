/**
 * The CONSENT, INVARIANT, ECONOMY and PROVENANCE scenarios (and wrong-epoch, which also covers RISK) fail
 * against a stand-in edge that signs everything: their expectations can fail.
 */
import t from 'tap';
import { unsafeEdgeFailsGroups } from './helpers/unsafe-edge-runs.js';

t.test(
  'an edge that signs everything fails every consent, torque, keep-out, battery and provenance scenario',
  (t) => unsafeEdgeFailsGroups(t, ['consent', 'physical', 'wire'], 12),
);
