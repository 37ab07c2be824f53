/**
 * The shipper took the cloud's acknowledgement count on trust: a cloud holding more of the robot's chain than
 * this edge ever wrote (an edge re-imaged with the robot's key, a state directory restored from an older
 * backup, another cloud) made it mark its own records shipped without sending them, and they were lost. Now
 * such a count is refused: nothing is marked shipped, and `edge ship` fails saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { fakeCloud, shipTo, writeVetoOutbox } from './helpers/fake-cloud.js';

const ROBOT = 'arm-1';

t.test(
  'a cloud that claims more records than the edge wrote is refused, and nothing is marked shipped',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'pentagate-cloud-ahead-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    await writeVetoOutbox(dir, ROBOT, 3);
    const posted: unknown[] = [];
    const cloud = await fakeCloud(t, (method, body) => {
      if (method === 'POST') posted.push(body);
      return { robotId: ROBOT, acknowledged: 6, headDigest: 'a'.repeat(64) };
    });
    const { code, err } = await shipTo(dir, ROBOT, cloud);
    t.equal(code, 1, 'refused');
    t.match(
      err.join('\n'),
      /the cloud says it holds 6 records of this robot's chain, but this edge has written only 3/,
    );
    t.same(posted, [], 'nothing was sent as if the cloud lacked only the rest');
    const reopened = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
    t.equal(reopened.acknowledged, 0, 'no record is marked shipped');
    await reopened.close();
  },
);
