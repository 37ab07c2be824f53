/**
 * Loads rclnodejs only where ROS 2 is sourced. rclnodejs is not a dependency in package.json: it compiles a native
 * addon against the ROS 2 installation and cannot install, or even be imported, without one. On a ROS machine:
 *
 *   source /opt/ros/<distro>/setup.bash
 *   npm install --no-save rclnodejs@<version for the distro> -w edge
 *
 * `AMENT_PREFIX_PATH` is what `setup.bash` sets; without it the import is not attempted and the error says what
 * to do.
 */
import { TransportError } from '../transport/transport-error.js';
import type { Rclnodejs } from './rclnodejs-surface.js';

export type ModuleImporter = (specifier: string) => Promise<unknown>;

const defaultImporter: ModuleImporter = (specifier) => import(specifier);

export async function loadRclnodejs(
  env: NodeJS.ProcessEnv = process.env,
  importer: ModuleImporter = defaultImporter,
): Promise<Rclnodejs> {
  if (!env.AMENT_PREFIX_PATH) {
    throw new TransportError(
      'ROS2_UNAVAILABLE',
      'ROS 2 is not sourced (AMENT_PREFIX_PATH is unset): run `source /opt/ros/<distro>/setup.bash` first, and install ' +
        'rclnodejs on that machine (`npm install --no-save rclnodejs -w edge`); without ROS 2 use the MQTT or serial transport',
    );
  }
  let mod: unknown;
  try {
    // A variable specifier keeps bundlers and the TypeScript compiler from resolving an optional package.
    const specifier = 'rclnodejs';
    mod = await importer(specifier);
  } catch (err) {
    throw new TransportError(
      'ROS2_UNAVAILABLE',
      `ROS 2 is sourced (AMENT_PREFIX_PATH=${env.AMENT_PREFIX_PATH}) but rclnodejs cannot be loaded: ${(err as Error).message}. ` +
        'Install it on this machine with `npm install --no-save rclnodejs -w edge` (it builds against the sourced ROS 2)',
    );
  }
  const candidate = ((mod as { default?: unknown }).default ?? mod) as Partial<Rclnodejs>;
  if (typeof candidate.init !== 'function' || typeof candidate.createNode !== 'function' || !candidate.QoS) {
    throw new TransportError(
      'ROS2_UNAVAILABLE',
      'the module loaded as rclnodejs lacks init, createNode or QoS',
    );
  }
  return candidate as Rclnodejs;
}
