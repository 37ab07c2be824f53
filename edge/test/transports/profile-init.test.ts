/** `pentagate edge profile init --from-bag`: a skeleton with what the recording shows, limits left to fill in. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { loadRobotProfile } from '../../src/profile/load-profile.js';
import { T0, armIntent, makeGate } from '../trap/fixtures.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';
import { writeCellRecording } from './helpers/recordings.js';

t.test('profile init from a recorded arm cell: joints, sources, roles; every limit null', async (t) => {
  const dir = t.testdir();
  const bag = join(dir, 'cell.mcap');
  const { profile } = makeGate();
  await writeCellRecording(bag, profile, T0, 200, { intents: [[100, armIntent()]] });
  const out = join(dir, 'robot.yaml');
  const r = await cli(['edge', 'profile', 'init', '--from-bag', bag, '--out', out, '--robot-id', 'cell-7']);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /wrote .*robot\.yaml: 6 joints, 6 topics; fill in every null/);
  const text = await readFile(out, 'utf8');
  const doc = parseYaml(text) as {
    robotId: string;
    kind: string;
    joints: { name: string; torqueLimitNm: null }[];
    sources: { name: string; kind: string; maxRangeM?: number | null }[];
    topics: { ros2: Record<string, { name: string; qos: { reliability: string } }> };
  };
  t.equal(doc.robotId, 'cell-7');
  t.equal(doc.kind, 'arm');
  t.same(
    doc.joints.map((j) => j.name),
    profile.joints.map((j) => j.name),
    'the joints of the recorded JointState',
  );
  t.ok(
    doc.joints.every((j) => j.torqueLimitNm === null),
    'limits are left to the user',
  );
  t.match(text, /efforts seen up to 40\.000 N·m/, 'the largest effort seen, as a hint');
  t.same(doc.sources.map((s) => `${s.name}:${s.kind}`).sort(), [
    'battery:battery',
    'firmware:firmware',
    'joint_states:joint-state',
    'proximity_front:proximity',
    'proximity_rear:proximity',
  ]);
  t.same(
    doc.sources.filter((s) => s.kind === 'proximity').map((s) => s.maxRangeM),
    [20, 20],
    "each scan source's maxRangeM is the range_max its messages declare",
  );
  t.match(doc.topics.ros2.jointStates, { name: '/joint_states', qos: { reliability: 'best-effort' } });
  t.match(doc.topics.ros2.intent, { name: '/pentagate/intent', qos: { reliability: 'reliable' } });
  t.match(doc.topics.ros2.cmd, { qos: { reliability: 'reliable' } });
  t.throws(
    () => loadRobotProfile(out),
    /torqueLimitNm/,
    'the skeleton does not run until the limits are filled in',
  );
  // every field the profile requires is in the skeleton, so `edge check` names only nulls to fill in
  const check = await cli(['edge', 'check', '--profile', out, '--json']);
  t.equal(check.code, 1);
  const problems = (JSON.parse(check.out) as { problems: { path: string; message: string }[] }).problems;
  const schema = problems.filter((p) => !/cross-field checks/.test(p.message));
  t.ok(schema.length > 20, `${schema.length} limits to fill in`);
  t.same(
    schema.filter((p) => !/got null$/.test(p.message)),
    [],
    'no field is missing from the skeleton',
  );

  const again = await cli(['edge', 'profile', 'init', '--from-bag', bag, '--out', out]);
  t.equal(again.code, 2);
  // says what is wrong in words, not as an errno code
  t.match(again.err, /--out: .* exists; refusing to overwrite it/);
  const missing = await cli([
    'edge',
    'profile',
    'init',
    '--from-bag',
    join(dir, 'nope.mcap'),
    '--out',
    join(dir, 'x.yaml'),
  ]);
  t.equal(missing.code, 2);
  t.match(missing.err, /nope\.mcap.*ENOENT/);
});
