/**
 * Call fingerprints for the metabolic ledger. The exact fingerprint identifies a call (tool name folded
 * to lower case, JCS arguments); the near fingerprint forgets what loops typically vary — digits, case,
 * whitespace, number values — so a loop that bumps a counter or a timestamp still shows as a loop.
 */
import { jcsSha256Hex } from './digest.js';
import { jsonSafe } from './json-safe.js';

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

export function callFingerprints(lobeName: string, toolName: string, args: unknown): CallFingerprints {
  return fingerprintsOfSafe(lobeName, toolName, jsonSafe(args).value);
}

/** `callFingerprints` for arguments already passed through `jsonSafe` (evaluation does that once). */
export function fingerprintsOfSafe(lobeName: string, toolName: string, safeArgs: unknown): CallFingerprints {
  const tool = toolName.toLowerCase();
  return {
    fingerprint: jcsSha256Hex({ v: 1, lobe: lobeName, tool, arguments: safeArgs }),
    nearFingerprint: jcsSha256Hex({ v: 1, lobe: lobeName, tool, shape: nearShape(safeArgs) }),
  };
}
