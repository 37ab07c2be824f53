/**
 * PROVENANCE (ARCHITECTURE.md §3): the firmware hash the controller reports matches a vendor-signed manifest, and
 * every sensor the profile marks `calibrationRequired` has a calibration certificate signed by a
 * calibration-role key that is valid now (issuedAt ≤ now < expiresAt). Signatures were checked when the
 * documents were loaded (provenance-registry.ts).
 *
 * Codes: PROVENANCE.FIRMWARE_UNSIGNED, PROVENANCE.CALIBRATION_MISSING, PROVENANCE.CALIBRATION_EXPIRED,
 * PROVENANCE.CALIBRATION_NOT_YET_VALID, PROVENANCE.STALE_DATA, PROVENANCE.MISSING_DATA.
 */
import { type FirmwareFrame, type GateResult, edgeViolation } from '@pentagate/protocol';
import { type GateContext, describeFrame, freshFrame, result } from './gate-context.js';

const V = 'PROVENANCE' as const;

export function provenanceGate(ctx: GateContext): GateResult {
  const violations: string[] = [];
  const evidence: Record<string, unknown> = {};
  const firmware = freshFrame<FirmwareFrame>(ctx, V, ctx.cp.firmwareSource, 'firmware', violations);
  if (firmware) {
    const m = ctx.provenance.manifestFor(firmware.frame.imageSha256);
    if (!m) {
      violations.push(
        edgeViolation(
          'PROVENANCE.FIRMWARE_UNSIGNED',
          `controller reports firmware ${firmware.frame.imageSha256.slice(0, 16)}… (version ${firmware.frame.version}); no vendor-signed manifest lists it (${describeFrame(firmware)})`,
        ),
      );
    } else {
      evidence.firmware = {
        imageSha256: m.manifest.imageSha256,
        vendor: m.manifest.vendor,
        version: m.manifest.firmwareVersion,
        keyid: m.keyid,
        manifestDigest: m.envelopeDigest,
      };
    }
  }
  const calibrations: Record<string, unknown>[] = [];
  for (const sensor of ctx.cp.profile.sensors) {
    if (!sensor.calibrationRequired) continue;
    const certs = ctx.provenance.certificatesFor(sensor.id);
    const valid = certs.find(
      (c) => c.certificate.issuedAt <= ctx.nowMs && ctx.nowMs < c.certificate.expiresAt,
    );
    if (valid) {
      calibrations.push({
        sensorId: sensor.id,
        calibrationId: valid.certificate.calibrationId,
        expiresAt: valid.certificate.expiresAt,
        keyid: valid.keyid,
      });
      continue;
    }
    if (certs.length === 0) {
      violations.push(
        edgeViolation(
          'PROVENANCE.CALIBRATION_MISSING',
          `sensor ${sensor.id} has no signed calibration certificate`,
        ),
      );
    } else if (certs.every((c) => c.certificate.issuedAt > ctx.nowMs)) {
      violations.push(
        edgeViolation(
          'PROVENANCE.CALIBRATION_NOT_YET_VALID',
          `sensor ${sensor.id}'s certificates are issued in the future`,
        ),
      );
    } else {
      const latest = Math.max(...certs.map((c) => c.certificate.expiresAt));
      violations.push(
        edgeViolation(
          'PROVENANCE.CALIBRATION_EXPIRED',
          `sensor ${sensor.id}'s calibration expired ${new Date(latest).toISOString()} (${ctx.nowMs - latest} ms ago)`,
        ),
      );
    }
  }
  evidence.calibrations = calibrations;
  return result(V, violations, evidence);
}
