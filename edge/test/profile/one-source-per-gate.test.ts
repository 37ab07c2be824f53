/**
 * The gates read one pose, one battery and one firmware source, the first of each (compiled-profile.ts). A profile
 * filled in from the skeleton of a Nav2 recording had two pose sources, `odom` (REP 105's odom frame, whose every
 * pose is refused) before `amcl_pose`: `edge check` called it valid, and INVARIANT read the refused one. A second
 * source of these kinds is now a problem, named at its path.
 */
import { readFileSync } from 'node:fs';
import { checkRobotProfileText } from '@pentagate/edge';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { profilesDir } from '../trap/fixtures.js';

const base = readFileSync(`${profilesDir}mobile-base.yaml`, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the test adds sources to the parsed YAML
type Doc = any;

function problemsWith(extra: { name: string; kind: string; maxAgeMs: number }[], first = false): string[] {
  const doc = parse(base) as Doc;
  doc.sources = first ? [...extra, ...doc.sources] : [...doc.sources, ...extra];
  return checkRobotProfileText(stringify(doc), profilesDir).problems.map((p) => `${p.path}: ${p.message}`);
}

t.test('the example base profile has one source of each kind the gates read once', async (t) => {
  t.same(problemsWith([]), []);
});

t.test('an odom-frame pose source before the localizer pose is named', async (t) => {
  const got = problemsWith([{ name: 'odom', kind: 'pose', maxAgeMs: 200 }], true);
  t.same(got, [
    'sources[1]: a second pose source "pose": INVARIANT reads one pose source, the first ("odom"), so this one would be judged by no gate; keep one',
  ]);
});

t.test('a second battery or firmware source is named too', async (t) => {
  const got = problemsWith([
    { name: 'battery-rear', kind: 'battery', maxAgeMs: 2000 },
    { name: 'firmware-arm', kind: 'firmware', maxAgeMs: 600_000 },
  ]);
  t.same(got, [
    'sources[4]: a second battery source "battery-rear": ECONOMY reads one battery source, the first ("battery"), so this one would be judged by no gate; keep one',
    'sources[5]: a second firmware source "firmware-arm": PROVENANCE reads one firmware source, the first ("firmware"), so this one would be judged by no gate; keep one',
  ]);
});
