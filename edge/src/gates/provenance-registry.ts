/**
 * Verified provenance documents: vendor-signed firmware manifests and calibration-lab-signed calibration
 * certificates (DSSE, ARCHITECTURE.md §4). Envelopes are verified once when loaded (signature, key role, key validity
 * at load time, payload type, statement schema); the PROVENANCE gate then checks expiry at decision time.
 */
import { type TrustStore, dsseVerifyStatement, envelopeDigest } from '@pentagate/crypto';
import {
  type CalibrationCertificate,
  CalibrationCertificateSchema,
  type DsseEnvelope,
  type FirmwareManifest,
  FirmwareManifestSchema,
  PAYLOAD_TYPES,
  type RobotProfile,
} from '@pentagate/protocol';

export interface VerifiedManifest {
  manifest: FirmwareManifest;
  keyid: string;
  envelopeDigest: string;
}

export interface VerifiedCertificate {
  certificate: CalibrationCertificate;
  keyid: string;
  envelopeDigest: string;
}

export interface ProvenanceDocuments {
  firmwareManifests?: readonly unknown[];
  calibrationCertificates?: readonly unknown[];
}

export interface ProvenanceLoadReport {
  accepted: number;
  rejected: { kind: 'firmware' | 'calibration'; index: number; reason: string }[];
}

export class ProvenanceRegistry {
  readonly #manifests: VerifiedManifest[] = [];
  readonly #certificates = new Map<string, VerifiedCertificate[]>();

  /** Verifies and adds the documents; a bad one is reported and skipped, never half-trusted. */
  load(trust: TrustStore, docs: ProvenanceDocuments, robotId: string, nowMs: number): ProvenanceLoadReport {
    const report: ProvenanceLoadReport = { accepted: 0, rejected: [] };
    (docs.firmwareManifests ?? []).forEach((envelope, index) => {
      try {
        const { statement, keyid } = dsseVerifyStatement(envelope, trust, FirmwareManifestSchema, {
          role: 'vendor',
          payloadType: PAYLOAD_TYPES.firmware,
          atMs: nowMs,
        });
        if (statement.robotIds && !statement.robotIds.includes(robotId)) {
          throw new Error(`manifest lists robots ${statement.robotIds.join(', ')}, not ${robotId}`);
        }
        this.#manifests.push({
          manifest: statement,
          keyid,
          envelopeDigest: envelopeDigest(envelope as DsseEnvelope),
        });
        report.accepted++;
      } catch (err) {
        report.rejected.push({ kind: 'firmware', index, reason: (err as Error).message });
      }
    });
    (docs.calibrationCertificates ?? []).forEach((envelope, index) => {
      try {
        const { statement, keyid } = dsseVerifyStatement(envelope, trust, CalibrationCertificateSchema, {
          role: 'calibration',
          payloadType: PAYLOAD_TYPES.calibration,
          atMs: nowMs,
        });
        if (statement.robotId !== robotId)
          throw new Error(`certificate is for robot ${statement.robotId}, not ${robotId}`);
        const list = this.#certificates.get(statement.sensorId) ?? [];
        list.push({
          certificate: statement,
          keyid,
          envelopeDigest: envelopeDigest(envelope as DsseEnvelope),
        });
        this.#certificates.set(statement.sensorId, list);
        report.accepted++;
      } catch (err) {
        report.rejected.push({ kind: 'calibration', index, reason: (err as Error).message });
      }
    });
    return report;
  }

  /** A verified manifest naming this image hash, if any. */
  manifestFor(imageSha256: string): VerifiedManifest | undefined {
    return this.#manifests.find((m) => m.manifest.imageSha256 === imageSha256);
  }

  certificatesFor(sensorId: string): readonly VerifiedCertificate[] {
    return this.#certificates.get(sensorId) ?? [];
  }

  /** How many verified firmware manifests are held. */
  get manifestCount(): number {
    return this.#manifests.length;
  }
}

/**
 * Why PROVENANCE cannot pass at `nowMs` whatever the telemetry says, judged at start so `edge run` can say it
 * loudly (a refused document is otherwise one log line, then every intent is vetoed): refused documents, no
 * vendor-signed firmware manifest at all while the profile has a firmware source, and each sensor that needs
 * calibration without a certificate valid now.
 */
export function provenanceStartProblems(
  profile: Pick<RobotProfile, 'sensors' | 'sources'>,
  registry: ProvenanceRegistry,
  report: ProvenanceLoadReport,
  nowMs: number,
): string[] {
  const out = report.rejected.map(
    (r) =>
      `${r.kind === 'firmware' ? 'firmware manifest' : 'calibration certificate'} #${r.index + 1} refused: ${r.reason}`,
  );
  if (registry.manifestCount === 0 && profile.sources.some((s) => s.kind === 'firmware')) {
    out.push('no vendor-signed firmware manifest is loaded (give one with --firmware)');
  }
  for (const sensor of profile.sensors) {
    if (!sensor.calibrationRequired) continue;
    const valid = registry
      .certificatesFor(sensor.id)
      .some((c) => c.certificate.issuedAt <= nowMs && nowMs < c.certificate.expiresAt);
    if (!valid)
      out.push(`sensor ${sensor.id} has no calibration certificate valid now (give one with --calibration)`);
  }
  return out;
}
