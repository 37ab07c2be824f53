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
}
