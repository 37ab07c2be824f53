/**
 * Hardware-in-the-loop, against the real `pentagate edge run`: INVARIANT, ECONOMY and PROVENANCE: torque limit, keep-out zone, battery reserve, unsigned firmware, expired calibration, and the demo loop.
 */
import t from 'tap';
import { HIL_GROUPS } from './helpers/hil-groups.js';
import { runHilGroup } from './helpers/run-hil-group.js';

t.test('the physical scenarios hold against the real edge', (t) => runHilGroup(t, HIL_GROUPS.physical));
