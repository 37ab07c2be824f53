/**
 * Call fingerprints for the metabolic ledger. The exact fingerprint identifies a call (tool name folded
 * to lower case, JCS arguments); the near fingerprint forgets what loops typically vary — digits, case,
 * whitespace, number values — so a loop that bumps a counter or a timestamp still shows as a loop.
 * Both are scoped to the agent's account, so the same call from another version of the agent (a new lobe)
 * is the same call to the metabolic ledger.
 */
import { jcsSha256Hex } from './digest.js';
import { jsonSafe } from './json-safe.js';
import type { AgentIdentity } from './types.js';

function nearShape(v: unknown): unknown {
  if (typeof v === 'string')
    return v
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[0-9]+/g, '0');
  if (typeof v === 'number') return '#';
  if (Array.isArray(v)) return v.map(nearShape);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = nearShape(x);
    return o;
  }
  return v;
}

export interface CallFingerprints {
  fingerprint: string;
  nearFingerprint: string;
}

/**
 * What a call's fingerprints are scoped to: the agent's account, or its lobe for a decision recorded
 * before accounts existed (so that its replay computes the fingerprints it was decided with).
 */
export function fingerprintScope(
  agent: Pick<AgentIdentity, 'accountId'> | undefined,
  lobeName: string,
): string {
  return agent?.accountId ?? lobeName;
}

/** The fingerprints of a call; `scope` is `fingerprintScope` of its agent. */
export function callFingerprints(scope: string, toolName: string, args: unknown): CallFingerprints {
  return fingerprintsOfSafe(scope, toolName, jsonSafe(args).value);
}

/** `callFingerprints` for arguments already passed through `jsonSafe` (evaluation does that once). */
export function fingerprintsOfSafe(scope: string, toolName: string, safeArgs: unknown): CallFingerprints {
  const tool = toolName.toLowerCase();
  // the member keeps its name `lobe`: fingerprints stored before accounts hash the same object
  return {
    fingerprint: jcsSha256Hex({ v: 1, lobe: scope, tool, arguments: safeArgs }),
    nearFingerprint: jcsSha256Hex({ v: 1, lobe: scope, tool, shape: nearShape(safeArgs) }),
  };
}
