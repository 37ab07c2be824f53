/**
 * The benchmark's robot: edge/profiles/ur5e-arm.yaml (6 joints, 10 keep-out zones, SSM on, two
 * calibrated lidars), with the example trust file swapped for keys generated here so the firmware
 * manifest and calibration certificates can be signed. Everything else in the profile is as shipped.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  createEd25519Signer,
  dsseSignStatement,
  ed25519KeyId,
  generateEd25519,
  hmacKeyId,
  TrustStore,
} from '@pentagate/crypto';
import { EdgeGate, loadRobotProfile, MemorySequenceStore, type SequenceStore } from '@pentagate/edge';
import {
  type Intent,
  PAYLOAD_TYPES,
  type RobotProfile,
  type TelemetryFrame,
  type TrustedKey,
  toBase64Url,
} from '@pentagate/protocol';

export const UR5E_PROFILE_PATH = fileURLToPath(
  new URL('../../../../edge/profiles/ur5e-arm.yaml', import.meta.url),
);
const FIRMWARE_SHA256 = 'cd'.repeat(32);
const HOME_RAD = [0, -1.57, 1.2, -1.2, -1.57, 0];

function trusted(publicKey: Uint8Array, role: TrustedKey['role']): TrustedKey {
  return { kid: ed25519KeyId(publicKey), alg: 'Ed25519', role, publicKey: toBase64Url(publicKey) };
}

export interface Ur5eCell {
  profile: RobotProfile;
  trust: TrustStore;
  hmacKey: { kid: string; key: Uint8Array };
  /** A gate with the firmware manifest and both lidar certificates loaded. */
  makeGate(clock?: () => number, sequence?: SequenceStore): EdgeGate;
  /** Frames from every source that pass every gate at `nowMs`; `nearestHumanM` for both lidars. */
  frames(seq: number, nowMs: number, nearestHumanM?: number | null): TelemetryFrame[];
  /** A 20-point, 6-joint trajectory from the home pose, inside every limit and clear of every zone. */
  trajectory(intentId: string): Intent;
  /**
   * A long plan from the home pose: the base swings to +3 rad, then between −3 and +3 rad, `swings` times in
   * all, at 1.5 rad/s in 0.5 rad waypoints with low efforts (the other joints hold the home pose), inside every
   * limit and clear of every zone. 12 swings: 138 points, 46 s, a 4,693-sample keep-out sweep (MAX_PATH_SAMPLES
   * is 5,000).
   */
  swingTrajectory(intentId: string, swings: number): Intent;
}

const SWING_AMPLITUDE_RAD = 3;
const SWING_SPEED_RAD_S = 1.5;
const SWING_STEP_RAD = 0.5;

/**
 * @param maxAgeMs when given, every source's maxAgeMs is raised to at least this; the end-to-end
 *   benchmark needs it because it does not stream telemetry at the profile's 50 ms rate.
 */
export function ur5eCell(options: { maxAgeMs?: number; validForMs?: number } = {}): Ur5eCell {
  const vendor = generateEd25519();
  const lab = generateEd25519();
  const operator = generateEd25519();
  const trustDocument = {
    keys: [
      trusted(vendor.publicKey, 'vendor'),
      trusted(lab.publicKey, 'calibration'),
      trusted(operator.publicKey, 'operator'),
    ],
  };
  const shipped = loadRobotProfile(UR5E_PROFILE_PATH);
  const profile: RobotProfile = {
    ...shipped,
    trust: { document: trustDocument },
    sources: shipped.sources.map((s) => ({ ...s, maxAgeMs: Math.max(s.maxAgeMs, options.maxAgeMs ?? 0) })),
    command: {
      ...shipped.command,
      validForMs: Math.max(shipped.command.validForMs, options.validForMs ?? 0),
    },
  };
  const trust = TrustStore.fromDocument(trustDocument);
  const key = new Uint8Array(randomBytes(32));
  const hmacKey = { kid: hmacKeyId(key), key };
  const issuedAt = Date.now() - 3_600_000;
  const firmwareManifests = [
    dsseSignStatement(
      PAYLOAD_TYPES.firmware,
      {
        v: 1,
        vendor: 'Universal Robots',
        model: 'UR5e',
        firmwareVersion: '5.15.0',
        imageSha256: FIRMWARE_SHA256,
        issuedAt,
      },
      createEd25519Signer(vendor.privateKey),
    ),
  ];
  const calibrationCertificates = profile.sensors
    .filter((s) => s.calibrationRequired)
    .map((s) =>
      dsseSignStatement(
        PAYLOAD_TYPES.calibration,
        {
          v: 1,
          lab: 'Bench Lab',
          robotId: profile.robotId,
          sensorId: s.id,
          calibrationId: `cal-${s.id}`,
          issuedAt,
          expiresAt: issuedAt + 365 * 86_400_000,
        },
        createEd25519Signer(lab.privateKey),
      ),
    );
  const jointNames = profile.joints.map((j) => j.name);
  const common = (source: string, seq: number, nowMs: number) => ({
    v: 1 as const,
    robotId: profile.robotId,
    source,
    seq,
    stampMs: nowMs,
  });
  return {
    profile,
    trust,
    hmacKey,
    makeGate(clock = Date.now, sequence = new MemorySequenceStore()) {
      const gate = new EdgeGate({ profile, trust, hmacKey, sequence, clock });
      const report = gate.loadProvenance({ firmwareManifests, calibrationCertificates });
      if (report.rejected.length > 0)
        throw new Error(`bench provenance refused: ${JSON.stringify(report.rejected)}`);
      return gate;
    },
    frames(seq, nowMs, nearestHumanM = 4) {
      return [
        {
          ...common('joint_states', seq, nowMs),
          kind: 'joint-state',
          names: jointNames,
          positionsRad: HOME_RAD,
          velocitiesRadS: HOME_RAD.map(() => 0),
          effortsNm: [1, 20, 10, 2, 1, 0.5],
        },
        { ...common('proximity-front', seq, nowMs), kind: 'proximity', nearestHumanM },
        { ...common('proximity-rear', seq, nowMs), kind: 'proximity', nearestHumanM: 4 },
        { ...common('battery', seq, nowMs), kind: 'battery', voltageV: 48, currentA: 2, stateOfCharge: 0.9 },
        {
          ...common('firmware', seq, nowMs),
          kind: 'firmware',
          imageSha256: FIRMWARE_SHA256,
          version: '5.15.0',
        },
      ];
    },
    swingTrajectory(intentId, swings) {
      const points: Extract<Intent, { kind: 'joint-trajectory' }>['points'] = [];
      let baseRad = 0;
      let elapsedMs = 0;
      for (let s = 0; s < swings; s++) {
        const towardRad = s % 2 === 0 ? SWING_AMPLITUDE_RAD : -SWING_AMPLITUDE_RAD;
        while (baseRad !== towardRad) {
          const stepRad =
            Math.sign(towardRad - baseRad) * Math.min(SWING_STEP_RAD, Math.abs(towardRad - baseRad));
          baseRad += stepRad;
          elapsedMs += (Math.abs(stepRad) / SWING_SPEED_RAD_S) * 1000;
          points.push({
            positionsRad: HOME_RAD.map((p, j) => (j === 0 ? baseRad : p)),
            velocitiesRadS: HOME_RAD.map((_, j) => (j === 0 ? Math.sign(stepRad) * SWING_SPEED_RAD_S : 0)),
            effortsNm: [1, 5, 3, 1, 0.5, 0.2],
            timeFromStartMs: Math.round(elapsedMs),
          });
        }
      }
      return { v: 1, intentId, robotId: profile.robotId, kind: 'joint-trajectory', jointNames, points };
    },
    trajectory(intentId) {
      return {
        v: 1,
        intentId,
        robotId: profile.robotId,
        kind: 'joint-trajectory',
        jointNames,
        points: Array.from({ length: 20 }, (_, i) => ({
          positionsRad: HOME_RAD.map((p, j) => p + ((i + 1) / 20) * (j === 0 ? 0.3 : 0.05)),
          velocitiesRadS: HOME_RAD.map((_, j) => (j === 0 ? 0.15 : 0.025)),
          effortsNm: [2, 30, 15, 3, 1.5, 0.5],
          timeFromStartMs: (i + 1) * 100,
        })),
      };
    },
  };
}
