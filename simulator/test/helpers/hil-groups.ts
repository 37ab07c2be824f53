/**
 * The bundled scenarios split into hardware-in-the-loop test files by what they protect, so each file stays
 * well inside tap's per-file timeout and two files can run side by side. `hil-groups.test.ts` checks that
 * every scenario in simulator/scenarios belongs to exactly one group (a new scenario cannot be forgotten).
 */
import { fileURLToPath } from 'node:url';

export const HIL_GROUPS = {
  risk: [
    'human-enters-radius',
    'human-inside-vetoes-intent',
    'human-inside-radius-ssm',
    'proximity-stale',
    'proximity-dropout',
    'proximity-nan',
    'base-person-ahead',
  ],
  consent: [
    'consent-granted',
    'consent-denied',
    'consent-late',
    'consent-forged-and-expired',
    'consent-replayed',
  ],
  wire: [
    'attack-replayed-command',
    'attack-forged-commands',
    'attack-expired-command',
    'attack-wrong-epoch',
    'controller-watchdog',
    'planner-redelivery',
  ],
  physical: [
    'torque-limit',
    'keep-out-table',
    'battery-reserve',
    'firmware-unsigned',
    'calibration-expired',
    'demo-cell',
  ],
} as const;

/** Scenarios also run with the controller behind a socat serial line (consent and replay). */
export const SERIAL_TOO: ReadonlySet<string> = new Set([
  'consent-granted',
  'consent-replayed',
  'attack-replayed-command',
]);

export function scenarioPath(name: string): string {
  return fileURLToPath(new URL(`../../scenarios/${name}.yaml`, import.meta.url));
}
