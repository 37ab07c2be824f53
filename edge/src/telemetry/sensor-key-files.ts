/**
 * Loads the sensor nodes' HMAC keys given to `edge run --sensor-key` and refuses to start when an
 * authenticated source's key is missing: every frame of that source would be refused, so the robot could
 * never move — better one clear line now than a stream of vetoes later. A key file group or others can read
 * is refused, as the command key is (edge-run.ts).
 */
import { readHmacKeyFile, assertOwnerOnlyKeyFile } from '@pentagate/crypto';
import { type RobotProfile, UsageError } from '@pentagate/protocol';
import { sensorKeyProblems } from './sensor-keys.js';

export async function readSensorKeys(
  profile: RobotProfile,
  paths: readonly string[],
): Promise<Map<string, Uint8Array>> {
  const keys = new Map<string, Uint8Array>();
  for (const path of paths) {
    // whoever reads a sensor's key can sign its frames: a person the lidar sees could be signed away
    await assertOwnerOnlyKeyFile(path, 'sensor HMAC key');
    const { kid, key } = await readHmacKeyFile(path);
    if (keys.has(kid)) throw new UsageError(`--sensor-key ${path}: key ${kid} was given twice`);
    keys.set(kid, key);
  }
  const problems = sensorKeyProblems(profile, keys);
  if (problems.length > 0) throw new UsageError(`--sensor-key: ${problems.join('; ')}`);
  return keys;
}
