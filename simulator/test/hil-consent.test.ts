/**
 * Hardware-in-the-loop, against the real `pentagate edge run`: CONSENT: granted, denied, late, forged, expired and replayed operator tokens (granted and replayed also over serial).
 */
import t from 'tap';
import { HIL_GROUPS } from './helpers/hil-groups.js';
import { runHilGroup } from './helpers/run-hil-group.js';

t.test('the consent scenarios hold against the real edge', (t) => runHilGroup(t, HIL_GROUPS.consent));
