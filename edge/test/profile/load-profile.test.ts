import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRobotProfileText, loadRobotProfile } from '@pentagate/edge';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { edgeCheckCommand } from '../../src/profile/check-command.js';
import { profilesDir } from '../trap/fixtures.js';

const arm = readFileSync(`${profilesDir}ur5e-arm.yaml`, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: tests reach into the parsed YAML to break one field at a time
type Doc = any;
/** The example arm profile with `edit` applied, as YAML text. */
function armWith(edit: (doc: Doc) => void): string {
  const doc = parse(arm) as Doc;
  edit(doc);
  return stringify(doc);
}
const lines = (text: string) =>
  checkRobotProfileText(text, profilesDir).problems.map((p) =>
    p.path ? `${p.path}: ${p.message}` : p.message,
  );

t.test('the example profiles load', async (t) => {
  t.equal(loadRobotProfile(`${profilesDir}ur5e-arm.yaml`).joints.length, 6);
  t.equal(loadRobotProfile(`${profilesDir}mobile-base.yaml`).kind, 'mobile-base');
});

t.test('reports every schema problem with its path, expectation and value', async (t) => {
  const got = lines(
    armWith((d) => {
      d.joints[2].torqueLimitNm = -3;
      d.keepOut.zones[4].radiusM = 'big';
      d.command.validForMs = 0;
    }),
  );
  t.ok(got.includes('joints[2].torqueLimitNm: expected a positive number, got -3'), got.join('\n'));
  t.ok(got.includes('keepOut.zones[4].radiusM: expected a finite number, got "big"'), got.join('\n'));
  t.ok(got.includes('command.validForMs: expected a number >= 1, got 0'), got.join('\n'));
});

t.test('reports cross-field problems: order, uniqueness, references, thickness, keys', async (t) => {
  const got = lines(
    armWith((d) => {
      d.joints[2].positionLimitsRad = { min: 1, max: -1 };
      d.joints[5].name = 'wrist_2_joint';
      d.risk.proximitySources = ['proximity-front', 'battery', 'nowhere'];
      d.keepOut.zones[6].radiusM = 0.005;
      d.battery.minVoltageV = 60;
    }),
  );
  t.ok(
    got.some((l) => l.startsWith('joints[2].positionLimitsRad: expected min < max')),
    got.join('\n'),
  );
  t.ok(got.some((l) => l.startsWith('joints[5].name: duplicate joint name')));
  t.ok(got.includes('risk.proximitySources[1]: source "battery" is battery, not proximity'));
  t.ok(got.includes('risk.proximitySources[2]: no source named "nowhere"'));
  t.ok(got.some((l) => l.startsWith('keepOut.zones[6]: diameter is 0.010 m, thinner than')));
  t.ok(got.some((l) => l.startsWith('battery.minVoltageV: expected < nominalVoltageV')));
  const noKeys = lines(
    armWith((d) => {
      d.trust = { document: { keys: [] } };
    }),
  );
  t.ok(noKeys.some((l) => l.startsWith('trust.document: ')));
  const missingTrust = lines(
    armWith((d) => {
      d.trust = { path: 'nope.json' };
    }),
  );
  t.match(missingTrust[0], /trust\.path: cannot read nope\.json/);
});

t.test('cross-field problems are reported beside schema problems, in one run', async (t) => {
  const got = lines(
    armWith((d) => {
      d.battery.capacityWh = -1; // schema
      d.joints[5].name = 'wrist_2_joint'; // cross-field (joints)
      d.keepOut.zones[6].radiusM = 0.005; // cross-field (zones)
    }),
  );
  t.ok(got.includes('battery.capacityWh: expected a positive number, got -1'), got.join('\n'));
  t.ok(
    got.some((l) => l.startsWith('joints[5].name: duplicate joint name')),
    'joints checked anyway',
  );
  t.ok(
    got.some((l) => l.startsWith('keepOut.zones[6]: diameter is 0.010 m')),
    'zones checked anyway',
  );
  t.ok(
    got.includes(
      'battery: cross-field checks of battery not run until the schema problems in battery are fixed',
    ),
    'the rule that cannot run says so',
  );
  t.notOk(
    got.some((l) => l.startsWith('battery.reserveWh')),
    'no cross-field verdict on a section of the wrong shape',
  );
  const notAnObject = lines('[1, 2]');
  t.ok(notAnObject.some((l) => /not run until the schema problems in the document are fixed/.test(l)));
});

t.test('YAML syntax errors carry a line and column; an unknown zone shape is named', async (t) => {
  t.match(
    checkRobotProfileText('robotId: [unclosed\n').problems[0]?.message,
    /^YAML \w+ at line \d+, column \d+/,
  );
  const got = lines(
    armWith((d) => {
      d.keepOut.zones[4].shape = 'cone';
    }),
  );
  t.ok(
    got.some((l) => l.startsWith('keepOut.zones[4].shape: expected "box", "sphere" or "prism"')),
    got.join('\n'),
  );
  t.throws(() => loadRobotProfile({ text: 'v: 2' }), { code: 'PROFILE_INVALID' });
});

t.test('pentagate edge check exits 0, 1 or 2 and lists each problem', async (t) => {
  const dir = t.testdir();
  writeFileSync(join(dir, 'example-trust.json'), readFileSync(`${profilesDir}example-trust.json`));
  writeFileSync(
    join(dir, 'bad.yaml'),
    armWith((d) => {
      d.joints[5].torqueLimitNm = -28;
    }),
  );
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, [edgeCheckCommand], { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const ok = await run(['edge', 'check', '--profile', `${profilesDir}ur5e-arm.yaml`]);
  t.equal(ok.code, 0);
  t.match(ok.out, /valid arm profile for ur5e-01: 6 joints, 10 keep-out zones/);
  const bad = await run(['edge', 'check', '--profile', join(dir, 'bad.yaml')]);
  t.equal(bad.code, 1);
  t.match(bad.out, /joints\[5\]\.torqueLimitNm: expected a positive number, got -28/);
  const json = await run(['edge', 'check', '--profile', join(dir, 'bad.yaml'), '--json']);
  t.equal(JSON.parse(json.out).valid, false);
  const okJson = JSON.parse(
    (await run(['edge', 'check', '--profile', `${profilesDir}mobile-base.yaml`, '--json'])).out,
  );
  t.match(okJson, { valid: true, robotId: 'amr-07' });
  t.equal((await run(['edge', 'check', '--profile', join(dir, 'missing.yaml')])).code, 2);
  t.equal((await run(['edge', 'check'])).code, 2);
});
