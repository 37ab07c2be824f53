/** Reads a `--bindings` / `--ros-bindings` YAML file of per-role ROS binding overrides (ros-role-overrides.ts). */
import { readFile } from 'node:fs/promises';
import { cannotRead, UsageError } from '@pentagate/protocol';
import { parse as parseYaml } from 'yaml';
import type { RosRoleOverride } from '../ros/ros-bindings.js';
import { parseRoleOverrides } from '../ros/ros-role-overrides.js';

export async function readRoleOverridesFile(
  path: string,
  option: string,
): Promise<Record<string, RosRoleOverride>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--${option}: ${cannotRead(path, err)}`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw new UsageError(`--${option}: ${path} is not YAML: ${(err as Error).message}`);
  }
  return parseRoleOverrides(value, `--${option} ${path}`);
}
