/**
 * What the robot's controller reports about itself: the SHA-256 of the firmware image it runs (the PROVENANCE
 * gate looks for a vendor-signed manifest naming it) and the calibration ids of its sensors. The image is a
 * deterministic byte string per version, so "wrong firmware" is simply another version's hash.
 */
import { sha256Hex } from '@pentagate/crypto';

export interface FirmwareIdentity {
  vendor: string;
  model: string;
  version: string;
  imageSha256: string;
}

/** The simulated firmware image for `version` (its bytes are the text below, hashed). */
export function simulatedFirmware(version: string, model = 'pentagate-sim-arm'): FirmwareIdentity {
  return {
    vendor: 'Pentagate Simulated Robotics',
    model,
    version,
    imageSha256: sha256Hex(`pentagate simulated controller firmware\nmodel ${model}\nversion ${version}\n`),
  };
}

/** A calibration id per sensor, stable per robot (what a lab would stamp on the certificate). */
export function calibrationIdFor(robotId: string, sensorId: string, issuedAtMs: number): string {
  return `cal-${robotId}-${sensorId}-${new Date(issuedAtMs).toISOString().slice(0, 10)}`;
}
