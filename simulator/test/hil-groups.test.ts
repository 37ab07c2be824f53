/** Every bundled scenario is run by exactly one hardware-in-the-loop test file. */
import { basename } from 'node:path';
import t from 'tap';
import { scenarioFiles } from '../src/cli/scenario-paths.js';
import { HIL_GROUPS } from './helpers/hil-groups.js';

t.test('every bundled scenario belongs to exactly one HIL group', async (t) => {
  const grouped = Object.values(HIL_GROUPS).flat() as string[];
  const bundled = scenarioFiles().map((f) => basename(f, '.yaml'));
  t.same([...grouped].sort(), [...new Set(grouped)].sort(), 'no scenario is in two groups');
  t.same([...new Set(grouped)].sort(), [...bundled].sort(), 'the groups hold exactly the bundled scenarios');
});
