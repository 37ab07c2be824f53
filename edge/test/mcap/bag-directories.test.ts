/**
 * Bag directories as rosbag2 wrote them over the years: metadata.yaml versions 1 to 9 (fields as
 * rosbag2_storage's yaml.hpp reads them: relative_file_paths relative to the bag's parent before version 4,
 * compression fields from 3, offered_qos_profiles as a string from 4 and as a list from 9, files from 5,
 * custom_data from 6, type_description_hash from 7, ros_distro from 8), with a split sqlite3 or MCAP recording read
 * file after file; a directory renamed since (old paths carry its old name); split files the metadata does not list
 * (a warning, not silence); a recording without messages; and a joint state that lacks a profile joint, whose
 * keep-out check cannot run (said, not skipped silently).
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import { TOPICS, jointStateMsg, openBag, scanMsg } from '../transports/helpers/recordings.js';

const QOS_STRING =
  '"- history: 3\\n  depth: 0\\n  reliability: 2\\n  durability: 2\\n  deadline:\\n    sec: 0\\n    nsec: 0\\n  lifespan:\\n    sec: 0\\n    nsec: 0\\n  liveliness: 1\\n  liveliness_lease_duration:\\n    sec: 0\\n    nsec: 0\\n  avoid_ros_namespace_conventions: false"';

function metadataYaml(
  version: number,
  dirName: string,
  files: string[],
  storage: 'sqlite3' | 'mcap',
): string {
  const path = (f: string) => (version < 4 ? `${dirName}/${f}` : f);
  const topic = (name: string, type: string) => {
    const lines = [
      '    - topic_metadata:',
      `        name: ${name}`,
      `        type: ${type}`,
      '        serialization_format: cdr',
    ];
    if (version >= 9) {
      lines.push(
        '        offered_qos_profiles:',
        '          - history: keep_last',
        '            depth: 5',
        '            reliability: best_effort',
        '            durability: volatile',
        '            deadline:',
        '              sec: 9223372036',
        '              nsec: 854775807',
      );
    } else if (version >= 4) lines.push(`        offered_qos_profiles: ${QOS_STRING}`);
    if (version >= 7) lines.push('        type_description_hash: RIHS01_00');
    lines.push('      message_count: 11');
    return lines;
  };
  const out = [
    'rosbag2_bagfile_information:',
    `  version: ${version}`,
    `  storage_identifier: ${storage}`,
    '  relative_file_paths:',
    ...files.map((f) => `    - ${path(f)}`),
    '  duration:',
    '    nanoseconds: 400000000',
    '  starting_time:',
    `    nanoseconds_since_epoch: ${T0}000000`,
    '  message_count: 22',
    '  topics_with_message_count:',
    ...topic(TOPICS.joints, ROS_TYPES.jointState),
    ...topic(TOPICS.front, ROS_TYPES.laserScan),
  ];
  if (version >= 3) out.push('  compression_format: ""', '  compression_mode: ""');
  if (version >= 5) {
    out.push('  files:');
    for (const f of files) {
      out.push(
        `    - path: ${f}`,
        '      starting_time:',
        `        nanoseconds_since_epoch: ${T0}000000`,
        '      duration:',
        '        nanoseconds: 200000000',
        '      message_count: 11',
      );
    }
  }
  if (version >= 6) out.push('  custom_data: ~');
  if (version >= 8) out.push('  ros_distro: humble');
  return `${out.join('\n')}\n`;
}

/** A split recording: file 0 holds 0..180 ms, file 1 200..400 ms, a person at 0.3 m from 300 ms on. */
async function writeSplit(dir: string, name: string, storage: 'sqlite3' | 'mcap'): Promise<string[]> {
  const { profile } = makeGate();
  const files: string[] = [];
  for (const [i, from, to] of [
    [0, 0, 180],
    [1, 200, 400],
  ] as const) {
    const file = `${name}_${i}.${storage === 'mcap' ? 'mcap' : 'db3'}`;
    files.push(file);
    const path = join(dir, file);
    const w =
      storage === 'mcap'
        ? await openBag(path)
        : await (async () => {
            const db = new Db3Writer(path, { schemaVersion: 3 });
            await db.rosChannel(TOPICS.joints, ROS_TYPES.jointState);
            await db.rosChannel(TOPICS.front, ROS_TYPES.laserScan);
            return db;
          })();
    for (let dt = from; dt <= to; dt += 20) {
      await w.write(TOPICS.joints, jointStateMsg(profile, T0 + dt), T0 + dt);
      await w.write(TOPICS.front, scanMsg(T0 + dt, dt >= 300 ? 0.3 : null), T0 + dt);
    }
    await w.finish();
  }
  return files;
}

for (const storage of ['sqlite3', 'mcap'] as const) {
  for (let version = 1; version <= 9; version++) {
    t.test(`metadata.yaml version ${version}, split ${storage} bag: both files, in order`, async (t) => {
      const dir = t.testdir({ [`bag_v${version}`]: {} });
      const bag = join(dir, `bag_v${version}`);
      const files = await writeSplit(bag, `bag_v${version}`, storage);
      await writeFile(join(bag, 'metadata.yaml'), metadataYaml(version, `bag_v${version}`, files, storage));
      const s = await replayRecording({ bagPath: bag, ...makeGate() });
      t.equal(s.error, undefined);
      t.same(s.warnings, []);
      t.equal(s.messages.total, 42);
      t.equal(s.logTimeBackwards, 0);
      t.equal(s.skipped.total, 0, JSON.stringify(s.skipped.examples));
      t.match(s.measured.breaches, [{ atMs: T0 + 300, check: 'proximity', subject: 'proximity-front' }]);
    });
  }
}

t.test('a version 2 bag whose directory was renamed: its files are found in the directory', async (t) => {
  const dir = t.testdir({ rosbag2_2019_11_20: {} });
  const files = await writeSplit(join(dir, 'rosbag2_2019_11_20'), 'rosbag2_2019_11_20', 'sqlite3');
  await writeFile(
    join(dir, 'rosbag2_2019_11_20', 'metadata.yaml'),
    metadataYaml(2, 'rosbag2_2019_11_20', files, 'sqlite3'),
  );
  await rename(join(dir, 'rosbag2_2019_11_20'), join(dir, 'run3'));
  const s = await replayRecording({ bagPath: join(dir, 'run3'), ...makeGate() });
  t.equal(s.error, undefined);
  t.equal(s.messages.total, 42);
});

t.test(
  'a split file metadata.yaml does not list: a warning names it, as rosbag2 it is not played',
  async (t) => {
    const dir = t.testdir({ bag: {} });
    const files = await writeSplit(join(dir, 'bag'), 'bag', 'mcap');
    await writeFile(join(dir, 'bag', 'metadata.yaml'), metadataYaml(9, 'bag', files.slice(0, 1), 'mcap'));
    const s = await replayRecording({ bagPath: join(dir, 'bag'), ...makeGate() });
    t.equal(s.messages.total, 20);
    t.match(s.warnings, [
      /bag: bag_1\.mcap is in the bag directory but not in metadata\.yaml's relative_file_paths, so not replayed .*ros2 bag reindex/,
    ]);
    t.match(
      renderReplaySummary(s),
      /\nWARNING: .*bag_1\.mcap is in the bag directory but not in metadata\.yaml/,
    );
  },
);

t.test(
  'a recording without messages: a warning that nothing was judged, and every source without data',
  async (t) => {
    const path = join(t.testdir(), 'empty_0.db3');
    const w = new Db3Writer(path, { schemaVersion: 4 });
    await w.rosChannel(TOPICS.joints, ROS_TYPES.jointState);
    await w.finish();
    const s = await replayRecording({ bagPath: path, ...makeGate() });
    t.equal(s.error, undefined);
    t.same(s.warnings, ['the recording holds no messages: nothing was judged']);
    t.same(
      s.measured.sourcesWithoutFrames.map((n) => n.source),
      ['joint_states', 'proximity-front', 'proximity-rear', 'battery'],
    );
    t.match(s.measured.sourcesWithoutFrames[1], {
      checks: ['proximity'],
      why: 'no topic in the recording feeds it',
    });
  },
);

t.test(
  'a joint state lacking a profile joint: keep-out is said not to be checked, the rest is',
  async (t) => {
    const path = join(t.testdir(), 'partial.mcap');
    const { gate, profile } = makeGate();
    const w = await openBag(path);
    for (let dt = 0; dt <= 100; dt += 20) {
      const m = jointStateMsg(profile, T0 + dt);
      // the wrist_3 joint published elsewhere (a second controller's joint_states)
      await w.write(
        TOPICS.joints,
        {
          ...m,
          name: m.name.slice(0, 5),
          position: m.position.slice(0, 5),
          velocity: m.velocity.slice(0, 5),
          effort: m.effort.slice(0, 5),
        },
        T0 + dt,
      );
    }
    await w.finish();
    const s = await replayRecording({ bagPath: path, profile, gate });
    t.equal(s.telemetry.accepted, 6);
    t.match(s.measured.notChecked, {
      'keep-out': {
        frames: 6,
        why: `joint_states lacks ${profile.joints[5]!.name}: the arm's pose needs every joint`,
      },
    });
  },
);
