/**
 * Everything a simulated robot cell needs before the edge starts, written into one state directory: the HMAC
 * command key the edge and the motor controller share, Ed25519 keys for the firmware vendor, the calibration
 * lab and the operator, a trust file naming them by role, a vendor-signed firmware manifest for the simulated
 * firmware, a lab-signed calibration certificate per sensor that needs one, and a copy of the robot profile
 * whose `trust.path` points at that trust file. Scenarios that test PROVENANCE ask for the wrong firmware or
 * an expired certificate here.
 */
import { chmod, copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createEd25519Signer,
  dsseSignStatement,
  readEd25519KeyFile,
  readHmacKeyFile,
  trustEntryFor,
  writeEd25519KeyFile,
  writeHmacKeyFile,
} from '@pentagate/crypto';
import {
  type CalibrationCertificate,
  type DsseEnvelope,
  type FirmwareManifest,
  PAYLOAD_TYPES,
  type RobotProfile,
} from '@pentagate/protocol';
import { stringify } from 'yaml';
import { type FirmwareIdentity, calibrationIdFor } from '../models/firmware-report.js';
import { DEMO_OPERATOR_ID } from '../fleet/fleet-setup.js';

export interface CredentialOptions {
  stateDir: string;
  profile: RobotProfile;
  /** The firmware the vendor signed (the controller may run another one). */
  signedFirmware: FirmwareIdentity;
  /** Calibration certificates: valid (default), expired, or none at all. */
  calibration?: 'valid' | 'expired' | 'missing';
  nowMs?: number;
  /** Use this existing HMAC command key (JWK, e.g. a deployment secret) instead of generating one. */
  hmacKeyFrom?: string;
}

export interface RobotCredentials {
  stateDir: string;
  profilePath: string;
  trustPath: string;
  hmacKeyPath: string;
  hmacKey: { kid: string; key: Uint8Array };
  operatorKeyPath: string;
  firmwareManifestPaths: string[];
  calibrationPaths: string[];
}

const DAY_MS = 86_400_000;

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644 });
}

/** Creates the keys, trust file, signed documents and profile copy in `stateDir` (which must be empty). */
export async function createRobotCredentials(options: CredentialOptions): Promise<RobotCredentials> {
  const dir = options.stateDir;
  const nowMs = options.nowMs ?? Date.now();
  const keysDir = join(dir, 'keys');
  await mkdir(keysDir, { recursive: true, mode: 0o700 });
  const hmacKeyPath = join(keysDir, 'command-hmac.jwk');
  if (options.hmacKeyFrom !== undefined) {
    await readHmacKeyFile(options.hmacKeyFrom); // validates it before copying
    await copyFile(options.hmacKeyFrom, hmacKeyPath);
    await chmod(hmacKeyPath, 0o600);
  } else await writeHmacKeyFile(hmacKeyPath);
  const vendor = await writeEd25519KeyFile(join(keysDir, 'vendor.pem'));
  const lab = await writeEd25519KeyFile(join(keysDir, 'calibration-lab.pem'));
  const operatorKeyPath = join(keysDir, 'operator.pem');
  const operator = await writeEd25519KeyFile(operatorKeyPath);
  const trustPath = join(dir, 'trust.json');
  await writeJson(trustPath, {
    keys: [
      trustEntryFor(vendor.publicKey, 'vendor', { comment: 'simulated robot vendor' }),
      trustEntryFor(lab.publicKey, 'calibration', { comment: 'simulated calibration lab' }),
      // named, so the edge takes its consents for this operator only (consent-intake.ts), not any name a token gives
      trustEntryFor(operator.publicKey, 'operator', {
        name: DEMO_OPERATOR_ID,
        comment: 'simulated cell operator',
      }),
    ],
  });

  const vendorSigner = createEd25519Signer((await readEd25519KeyFile(join(keysDir, 'vendor.pem'))).seed);
  const fw = options.signedFirmware;
  const manifest: FirmwareManifest = {
    v: 1,
    vendor: fw.vendor,
    model: fw.model,
    firmwareVersion: fw.version,
    imageSha256: fw.imageSha256,
    issuedAt: nowMs - DAY_MS,
    robotIds: [options.profile.robotId],
  };
  const docsDir = join(dir, 'provenance');
  await mkdir(docsDir, { recursive: true });
  const firmwarePath = join(docsDir, `firmware-${fw.version}.dsse.json`);
  await writeJson(firmwarePath, dsseSignStatement(PAYLOAD_TYPES.firmware, manifest, vendorSigner));

  const calibrationPaths: string[] = [];
  if ((options.calibration ?? 'valid') !== 'missing') {
    const labSigner = createEd25519Signer(
      (await readEd25519KeyFile(join(keysDir, 'calibration-lab.pem'))).seed,
    );
    const expired = options.calibration === 'expired';
    for (const sensor of options.profile.sensors.filter((s) => s.calibrationRequired)) {
      const issuedAt = nowMs - (expired ? 400 : 30) * DAY_MS;
      const certificate: CalibrationCertificate = {
        v: 1,
        lab: 'Pentagate Simulated Calibration Lab',
        robotId: options.profile.robotId,
        sensorId: sensor.id,
        calibrationId: calibrationIdFor(options.profile.robotId, sensor.id, issuedAt),
        issuedAt,
        expiresAt: expired ? nowMs - DAY_MS : nowMs + 335 * DAY_MS,
      };
      const path = join(docsDir, `calibration-${sensor.id}.dsse.json`);
      const envelope: DsseEnvelope = dsseSignStatement(PAYLOAD_TYPES.calibration, certificate, labSigner);
      await writeJson(path, envelope);
      calibrationPaths.push(path);
    }
  }

  const profilePath = join(dir, 'profile.yaml');
  const profile: RobotProfile = { ...options.profile, trust: { path: 'trust.json' } };
  await writeFile(
    profilePath,
    `# Written by the Pentagate simulator for this run; trust.path names the keys generated beside it.\n${stringify(profile)}`,
  );
  return {
    stateDir: dir,
    profilePath,
    trustPath,
    hmacKeyPath,
    hmacKey: await readHmacKeyFile(hmacKeyPath),
    operatorKeyPath,
    firmwareManifestPaths: [firmwarePath],
    calibrationPaths,
  };
}

/**
 * Reads back a cell written by createRobotCredentials (e.g. by `pentagate sim cell` into a volume the edge
 * also mounts), for a simulator that connects to an edge it did not start.
 */
export async function loadRobotCredentials(stateDir: string): Promise<RobotCredentials> {
  const keysDir = join(stateDir, 'keys');
  const docsDir = join(stateDir, 'provenance');
  const hmacKeyPath = join(keysDir, 'command-hmac.jwk');
  const docs = (await readdir(docsDir)).sort();
  return {
    stateDir,
    profilePath: join(stateDir, 'profile.yaml'),
    trustPath: join(stateDir, 'trust.json'),
    hmacKeyPath,
    hmacKey: await readHmacKeyFile(hmacKeyPath),
    operatorKeyPath: join(keysDir, 'operator.pem'),
    firmwareManifestPaths: docs.filter((f) => f.startsWith('firmware-')).map((f) => join(docsDir, f)),
    calibrationPaths: docs.filter((f) => f.startsWith('calibration-')).map((f) => join(docsDir, f)),
  };
}
