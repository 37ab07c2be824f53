/**
 * Which sensor key may speak for which telemetry source (ARCHITECTURE.md §4, "Authenticated sources").
 * A source with `macKeyId` is bound to that key, and a key named by some source is bound to those sources
 * alone: a lidar's key can never vouch for joint states. Rules, in order (the first that applies decides):
 * - no `mac`: refused when the source is `authenticated`, accepted otherwise (an unsigned source);
 * - a `mac` by another source's key, or by a key this edge does not hold: refused (fail closed: a MAC the
 *   edge cannot check proves nothing, and the evidence digest would seem to vouch for it);
 * - a `mac` that does not match the frame: refused;
 * - otherwise accepted. Keys are compared by id, tags in constant time (verifyFrameMac).
 */
import { edgeFrameMacs } from '../crypto/node-hmac.js';
import type { RobotProfile, SourceProfile, TelemetryFrame } from '@pentagate/protocol';

export class SensorKeys {
  readonly #keys: ReadonlyMap<string, Uint8Array>;
  /** keyId → the sources whose `macKeyId` names it. */
  readonly #owners = new Map<string, string[]>();

  constructor(profile: RobotProfile, keys: ReadonlyMap<string, Uint8Array>) {
    this.#keys = keys;
    for (const s of profile.sources) {
      if (s.macKeyId === undefined) continue;
      this.#owners.set(s.macKeyId, [...(this.#owners.get(s.macKeyId) ?? []), s.name]);
    }
  }

  /** Why `frame` may not speak for `source`, or undefined when it may. */
  macProblem(source: SourceProfile, frame: TelemetryFrame): string | undefined {
    const mac = frame.mac;
    if (mac === undefined) {
      return source.authenticated === true
        ? 'unsigned frame: the profile marks this source authenticated (sign it with its sensor key)'
        : undefined;
    }
    if (source.macKeyId !== undefined && mac.keyId !== source.macKeyId) {
      return `signed by key ${mac.keyId}, but this source's key is ${source.macKeyId}`;
    }
    const owners = this.#owners.get(mac.keyId);
    if (source.macKeyId === undefined && owners !== undefined) {
      return `signed by key ${mac.keyId}, which belongs to ${owners.join(', ')}`;
    }
    const key = this.#keys.get(mac.keyId);
    if (key === undefined) {
      return `signed by key ${mac.keyId}, which this edge does not hold (give it with --sensor-key)`;
    }
    return edgeFrameMacs.verify(key, frame) ? undefined : `MAC does not match the frame (key ${mac.keyId})`;
  }
}

/**
 * Problems that stop the edge from starting: an authenticated source without `macKeyId` (the profile
 * check reports it too), or whose key was not given. Every frame of such a source would be refused.
 */
export function sensorKeyProblems(profile: RobotProfile, keys: ReadonlyMap<string, Uint8Array>): string[] {
  const out: string[] = [];
  for (const s of profile.sources) {
    if (s.authenticated !== true) continue;
    if (s.macKeyId === undefined) out.push(`source ${s.name} is authenticated but names no macKeyId`);
    else if (!keys.has(s.macKeyId)) {
      out.push(`source ${s.name} is authenticated by key ${s.macKeyId}: give its key file with --sensor-key`);
    }
  }
  return out;
}
