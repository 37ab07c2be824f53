/**
 * The options through which `edge run` and `edge replay` hand the gate what the robot runs with: PROVENANCE's
 * firmware manifests and calibration certificates, and the HMAC keys of authenticated sensor sources. One
 * definition, so the two commands cannot drift apart in name or meaning.
 */
import type { OptionSpec } from '@pentagate/protocol';

export const gateDocumentOptions: Record<'firmware' | 'calibration' | 'sensor-key', OptionSpec> = {
  firmware: {
    type: 'string',
    multiple: true,
    description: 'Firmware manifest (repeatable)',
    valueName: 'FILE',
  },
  calibration: {
    type: 'string',
    multiple: true,
    description: 'Calibration certificate (repeatable)',
    valueName: 'FILE',
  },
  'sensor-key': {
    type: 'string',
    multiple: true,
    description: 'A sensor node’s HMAC key, for sources the profile marks authenticated (repeatable)',
    valueName: 'FILE',
  },
};
