/**
 * A robot whose edge signs under another profile or MAC key than it was registered with (`robot add
 * --profile-digest --command-kid`): its commands are stored — they are what the robot did — and each batch
 * that holds such commands raises an alarm (metric and live event), once per kind. Commands under the
 * registered profile and key, and verdicts without a command, raise none.
 */
import type { EdgeAuditRecord } from '@pentagate/protocol';
import t from 'tap';
import { addRobot } from '../../src/fleet/robot-registry.js';
import { openFleetStore } from '../../src/store/open-fleet-store.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { edgeChain, signedVerdict, vetoedVerdict } from '../helpers/edge-records.js';

const KID = 'a1b2c3d4e5f60718';
const PROFILE = 'c'.repeat(64);

t.test('commands under an unregistered profile or key are stored and alarmed', async (t) => {
  const cloud = await testCloud(t);
  const fleet = await openFleetStore(cloud.store);
  const { edgeKey } = await addRobot(cloud.store, fleet, {
    tenantId: cloud.a.id,
    robotId: 'ur5e-01',
    commandKid: KID,
    profileDigest: PROFILE,
  });
  // records 0..1 as registered, 2 under another profile, 3 with another key, 4 a veto (no command)
  const chain: EdgeAuditRecord[] = edgeChain('ur5e-01', 5, 1_700_000_000_000, (robotId, index, atMs) =>
    index === 4
      ? vetoedVerdict(robotId, atMs)
      : signedVerdict(robotId, index, atMs, {
          cfgDigest: index === 2 ? 'd'.repeat(64) : PROFILE,
          commandKid: index === 3 ? 'ffffffffffffffff' : KID,
        }),
  );
  const post = (records: EdgeAuditRecord[]) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/fleet/robots/ur5e-01/records',
      headers: bearer(edgeKey.key),
      payload: { records },
    });
  const alarms = async () => {
    const body = (await cloud.app.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (kind: string) =>
      Number(
        new RegExp(`pentagate_fleet_chain_alarms_total\\{kind="${kind}"\\} (\\d+)`).exec(body)?.[1] ?? 0,
      );
    return { profile: count('unregistered-profile'), key: count('unregistered-command-key') };
  };

  const registered = await post(chain.slice(0, 2));
  t.equal(registered.json().stored, 2, registered.body);
  t.same(await alarms(), { profile: 0, key: 0 }, 'commands as registered raise nothing');

  const off = await post(chain.slice(2));
  t.equal(off.statusCode, 200, off.body);
  t.equal(off.json().stored, 3, 'the commands are stored all the same: they are what the robot did');
  t.same(await alarms(), { profile: 1, key: 1 }, 'one alarm per kind for the batch');

  const again = await post(chain.slice(2));
  t.equal(again.json().duplicates, 3);
  t.same(await alarms(), { profile: 1, key: 1 }, 'a resend stores nothing new and raises nothing new');
});
