/**
 * Hardware-in-the-loop, against the real `pentagate edge run`: RISK: people entering the radius, stale, missing and NaN proximity data, a base driving at a person.
 */
import t from 'tap';
import { HIL_GROUPS } from './helpers/hil-groups.js';
import { runHilGroup } from './helpers/run-hil-group.js';

t.test('the risk scenarios hold against the real edge', (t) => runHilGroup(t, HIL_GROUPS.risk));
