/**
 * Hardware-in-the-loop, against the real `pentagate edge run`: attacks on the command wire (tampered, replayed, expired, wrong-epoch, unknown key, wrong robot) and the controller watchdog (replay also over serial).
 */
import t from 'tap';
import { HIL_GROUPS } from './helpers/hil-groups.js';
import { runHilGroup } from './helpers/run-hil-group.js';

t.test('the wire scenarios hold against the real edge', (t) => runHilGroup(t, HIL_GROUPS.wire));
