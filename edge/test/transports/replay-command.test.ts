import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeHmacKeyFile } from '@pentagate/crypto';
import { commands } from '@pentagate/edge/commands';
import { type CliIo, runCli } from '@pentagate/protocol';
import t from 'tap';
import { T0, armIntent, armProfile, calibration, firmwareManifest } from '../trap/fixtures.js';
import { writeCellRecording } from './helpers/recordings.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { out: (s) => out.push(s), err: (s) => err.push(s) };
  return { cli, out, err };
}

async function scene(dir: string) {
  const profile = armProfile();
  const profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
  const fw = join(dir, 'fw.json');
  await writeFile(fw, JSON.stringify(firmwareManifest()));
  const cals = await Promise.all(
    profile.sensors
      .filter((s) => s.calibrationRequired)
      .map(async (s) => {
        const p = join(dir, `${s.id}.cal.json`);
        await writeFile(p, JSON.stringify(calibration(profile.robotId, s.id)));
        return p;
      }),
  );
  const bag = join(dir, 'cell.mcap');
  await writeCellRecording(bag, profile, T0, 800, {
    intents: [[100, armIntent()]],
    frontHumanM: [[400, 0.3]],
  });
  const args = [
    'edge',
    'replay',
    '--profile',
    profilePath,
    '--bag',
    bag,
    '--firmware',
    fw,
    ...cals.flatMap((c) => ['--calibration', c]),
  ];
  return { profile, profilePath, bag, args };
}

t.test('edge replay prints the summary; --json and --record; exit 0', async (t) => {
  const dir = t.testdir();
  const { args } = await scene(dir);
  const text = io();
  t.equal(await runCli(args, commands, text.cli), 0, text.err.join('\n'));
  const out = text.out.join('\n');
  t.match(out, /messages\s+\d+/);
  t.match(out, /\/joint_states\s+\[sensor_msgs\/msg\/JointState\] → telemetry:joint_states/);
  t.match(out, /first veto \+0\.400 s .* stopped/);
  t.match(out, /commands\s+1 motion, \d+ STOP/);
  t.match(
    text.err.join('\n'),
    /warning: profile sources\[1\]\.maxRangeM: proximity source "proximity-front" names no measuring range/,
    "what edge check warns about the profile is said beside the replay's verdicts",
  );

  const record = join(dir, 'verdicts.mcap');
  const json = io();
  const key = join(dir, 'cmd.jwk');
  await writeHmacKeyFile(key);
  t.equal(await runCli([...args, '--json', '--record', record, '--hmac-key', key], commands, json.cli), 0);
  const s = JSON.parse(json.out.join('\n'));
  t.equal(s.verdicts.byOutcome.signed, 1);
  t.equal(s.recordedTo, record);
  t.ok((await readFile(record)).byteLength > 1000);
  const again = io();
  t.equal(
    await runCli([...args, '--record', record], commands, again.cli),
    2,
    'never overwrites a recording',
  );
  t.match(again.err.join('\n'), /EEXIST/);
});

t.test('without provenance documents every move is vetoed by PROVENANCE', async (t) => {
  const dir = t.testdir();
  const { profilePath, bag } = await scene(dir);
  const r = io();
  t.equal(
    await runCli(['edge', 'replay', '--profile', profilePath, '--bag', bag, '--json'], commands, r.cli),
    0,
  );
  const s = JSON.parse(r.out.join('\n'));
  t.equal(s.commands.motion, 0);
  t.match(s.firstFailureByVertex.PROVENANCE, { violation: /^PROVENANCE\./ });
});

t.test(
  'bad input: truncated bag exits 2 with the summary; bad bindings, missing options and help',
  async (t) => {
    const dir = t.testdir();
    const { args, bag, profilePath } = await scene(dir);
    const bytes = await readFile(bag);
    const cut = join(dir, 'cut.mcap');
    await writeFile(cut, bytes.subarray(0, bytes.length - 100));
    const r = io();
    t.equal(await runCli(['edge', 'replay', '--profile', profilePath, '--bag', cut], commands, r.cli), 2);
    t.match(r.out.join('\n'), /ERROR: recording .*cut\.mcap: truncated/);

    const bindings = join(dir, 'bindings.yaml');
    await writeFile(bindings, 'proximity: { sektor: 1 }\nintent: { twistDurationMs: -1 }\n');
    const b = io();
    t.equal(await runCli([...args, '--bindings', bindings], commands, b.cli), 2);
    t.match(b.err.join('\n'), /proximity\.sektor: unknown key.*intent\.twistDurationMs: expected an integer/);
    await writeFile(bindings, 'proximityFront: { sector: { minAngleRad: -0.2, maxAngleRad: 0.2 } }\n');
    const ok = io();
    t.equal(
      await runCli(
        [...args, '--bindings', bindings, '--ignore-stamps', '--monitor-period', '10ms'],
        commands,
        ok.cli,
      ),
      0,
    );
    await writeFile(bindings, '[: nope');
    const y = io();
    t.equal(await runCli([...args, '--bindings', bindings], commands, y.cli), 2);
    t.match(y.err.join('\n'), /is not YAML/);
    const m = io();
    t.equal(await runCli([...args, '--bindings', join(dir, 'none.yaml')], commands, m.cli), 2);

    const u = io();
    t.equal(await runCli(['edge', 'replay', '--profile', profilePath], commands, u.cli), 2);
    t.match(u.err.join('\n'), /--bag is required/);
    const h = io();
    t.equal(await runCli(['edge', 'replay', '--help'], commands, h.cli), 0);
    const help = h.out.join('\n');
    for (const field of [
      'firstVeto',
      'verdicts.byVertex',
      'skipped.byReason',
      'telemetry.rejected',
      'messages.byTopic',
      'commands.motion',
    ]) {
      t.match(help, field, `--help documents ${field}`);
    }
  },
);

t.test('a rosbag2 directory is accepted; one without a recording is refused', async (t) => {
  const dir = t.testdir({ bagdir: { 'metadata.yaml': 'rosbag2_bagfile_information: {}\n' }, emptydir: {} });
  const { args, bag } = await scene(dir);
  await writeFile(join(dir, 'bagdir', 'bagdir_0.mcap'), await readFile(bag));
  const withDir = args.map((a) => (a === bag ? join(dir, 'bagdir') : a));
  const r = io();
  t.equal(await runCli(withDir, commands, r.cli), 0, r.err.join('\n'));
  const e = io();
  t.equal(
    await runCli(
      args.map((a) => (a === bag ? join(dir, 'emptydir') : a)),
      commands,
      e.cli,
    ),
    2,
  );
  t.match(
    e.err.join('\n'),
    /^pentagate edge replay: recording .*emptydir: a directory with no metadata\.yaml, \.mcap or \.db3 file$/,
  );
  t.same(e.out, [], 'nothing was read: the error alone, no empty summary');
  const missing = io();
  const missingArgs = args.map((a) => (a === bag ? join(dir, 'nope.mcap') : a));
  t.equal(await runCli([...missingArgs, '--json'], commands, missing.cli), 2);
  t.same(missing.out, []);
  t.match(missing.err, [/nope\.mcap: cannot open it \(ENOENT\)/]);
});

t.test('the recording may be the one argument instead of --bag, but not both', async (t) => {
  const dir = t.testdir();
  const { args, bag } = await scene(dir);
  const withoutBag = args.filter((a, i) => a !== '--bag' && args[i - 1] !== '--bag');
  const byOption = io();
  t.equal(await runCli(args, commands, byOption.cli), 0, byOption.err.join('\n'));
  const positional = io();
  t.equal(await runCli([...withoutBag, bag], commands, positional.cli), 0, positional.err.join('\n'));
  t.same(positional.out, byOption.out, 'the same summary either way');

  const both = io();
  t.equal(await runCli([...args, bag], commands, both.cli), 2);
  t.match(both.err.join('\n'), /give the recording once/);
  const neither = io();
  t.equal(await runCli(withoutBag, commands, neither.cli), 2);
  t.match(neither.err.join('\n'), /--bag is required \(or give the recording as the argument\)/);
  t.same(neither.out, [], 'nothing replayed');
});
