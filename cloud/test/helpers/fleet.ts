/** Robots registered on a test cloud, with their edge keys. */
import { addRobot } from '../../src/fleet/robot-registry.js';
import { openFleetStore } from '../../src/store/open-fleet-store.js';
import type { TestCloud, TestTenant } from './cloud-app.js';

export async function testRobot(cloud: TestCloud, tenant: TestTenant, robotId: string): Promise<string> {
  const fleet = await openFleetStore(cloud.store);
  const added = await addRobot(cloud.store, fleet, {
    tenantId: tenant.id,
    robotId,
    commandKid: `${robotId}-cmd`,
    profileDigest: 'c'.repeat(64),
  });
  return added.edgeKey.key;
}
