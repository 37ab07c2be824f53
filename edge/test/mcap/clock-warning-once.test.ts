/**
 * A robot whose clock was never set records in 1970, and its drivers leave header.stamp zero. `edge replay` on
 * such a bag warns that its log time is no wall-clock time: once where a person reads it. The text summary
 * carries it (WARNING: …), so stderr does not repeat it; with --json the object carries it and stderr says it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commands } from '@pentagate/edge/commands';
import { type CliIo, runCli } from '@pentagate/protocol';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { header, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { baseProfileWithIntent } from '../trap/fixtures.js';

const CLOCK_WARNING = /log time starts at 1970-01-01T/;

/** Five unstamped TwistStamped commands logged in the first second of 1970. */
async function unsetClockBag(dir: string): Promise<string> {
  const path = join(dir, 'rosbag2_1970_01_01');
  await mkdir(path);
  const sink = await McapFileSink.create(join(path, 'rosbag2_1970_01_01_0.mcap'));
  const bag = await RosbagWriter.open({ writable: sink });
  await bag.rosChannel('/cmd_vel', ROS_TYPES.twistStamped);
  for (let ms = 0; ms < 500; ms += 100) {
    await bag.write('/cmd_vel', { ...twistStampedMsg(0, 0.5, 0), header: header(0) }, ms);
  }
  await bag.end();
  await sink.close();
  return path;
}

async function replay(dir: string, ...extra: string[]) {
  const profile = join(dir, 'profile.json');
  await writeFile(profile, JSON.stringify(baseProfileWithIntent('/cmd_vel')));
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { out: (s) => out.push(...s.split('\n')), err: (s) => err.push(...s.split('\n')) };
  const code = await runCli(
    ['edge', 'replay', '--profile', profile, await unsetClockBag(dir), ...extra],
    commands,
    cli,
  );
  return { code, out, err };
}

t.test('the text summary says it once, stderr not again', async (t) => {
  const r = await replay(t.testdir());
  t.equal(r.code, 0, r.err.join('\n'));
  t.equal([...r.out, ...r.err].filter((l) => CLOCK_WARNING.test(l)).length, 1);
  t.ok(
    r.out.some((l) => /^WARNING: .*log time starts at 1970/.test(l)),
    'in the summary',
  );
  t.match(r.out.join('\n'), /\s5\s+unstamped \(e\.g\. \/cmd_vel: header\.stamp is zero/);
});

t.test('with --json: in the object, and once on stderr', async (t) => {
  const r = await replay(t.testdir(), '--json');
  t.equal(r.code, 0, r.err.join('\n'));
  t.match(JSON.parse(r.out.join('\n')).warnings, [CLOCK_WARNING]);
  t.equal(r.err.filter((l) => CLOCK_WARNING.test(l)).length, 1);
});
