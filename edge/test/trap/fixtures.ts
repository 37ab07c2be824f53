/**
 * Shared test fixtures for the edge gate tests: real Ed25519 keys for vendor, calibration lab and operator,
 * the example UR5e and mobile-base profiles with those keys as their trust, fresh telemetry frames, and a
 * gate with signed firmware and calibration loaded. Not a test file itself (no `.test.ts`).
 */
import { fileURLToPath } from 'node:url';
import {
  TrustStore,
  createEd25519Signer,
  dsseSignStatement,
  ed25519KeyId,
  hmacKeyId,
  jcsDigestHex,
} from '@pentagate/crypto';
import {
  EdgeGate,
  MemorySequenceStore,
  type SequenceStore,
  type SpentConsentNonces,
  loadRobotProfile,
} from '@pentagate/edge';
import {
  type ConsentStatement,
  type DsseEnvelope,
  type Intent,
  PAYLOAD_TYPES,
  type RobotProfile,
  type TelemetryFrame,
  toBase64Url,
} from '@pentagate/protocol';

export const T0 = 1_750_000_000_000;
export const FIRMWARE_SHA = 'a'.repeat(64);

const seed = (n: number) => new Uint8Array(32).fill(n);
export const vendor = createEd25519Signer(seed(1));
export const lab = createEd25519Signer(seed(2));
export const operator = createEd25519Signer(seed(3));
export const stranger = createEd25519Signer(seed(4));
export const hmacKey = { key: new Uint8Array(32).fill(9), kid: hmacKeyId(new Uint8Array(32).fill(9)) };

export const trustDocument = {
  keys: [
    [vendor, 'vendor'],
    [lab, 'calibration'],
    [operator, 'operator'],
  ].map(([s, role]) => {
    const signer = s as typeof vendor;
    return {
      kid: ed25519KeyId(signer.publicKey),
      alg: 'Ed25519',
      role: role as string,
      publicKey: toBase64Url(signer.publicKey),
    };
  }),
};
export const trust = TrustStore.fromDocument(trustDocument);

export const profilesDir = fileURLToPath(new URL('../../profiles/', import.meta.url));

const ARM = loadRobotProfile(`${profilesDir}ur5e-arm.yaml`);
const BASE = loadRobotProfile(`${profilesDir}mobile-base.yaml`);

export function armProfile(patch: (p: RobotProfile) => void = () => {}): RobotProfile {
  const p = structuredClone(ARM);
  p.trust = { document: trustDocument };
  patch(p);
  return p;
}

export function baseProfile(patch: (p: RobotProfile) => void = () => {}): RobotProfile {
  const p = structuredClone(BASE);
  p.trust = { document: trustDocument };
  patch(p);
  return p;
}

/**
 * The base profile reading its intents from `topic`, as a robot's recording has them (`/cmd_vel`): replay judges
 * only the command stream the profile names, as the live edge does.
 */
export function baseProfileWithIntent(topic: string): RobotProfile {
  return baseProfile((p) => {
    const intent = p.topics?.ros2?.intent;
    if (!intent) throw new Error('the mobile-base profile names an intent topic');
    intent.name = topic;
  });
}

/** UR5e "home": upright, clear of every zone. */
export const HOME = [0, -Math.PI / 2, 0, -Math.PI / 2, 0, 0];

let seqCounter = 1;
const common = (robotId: string, source: string, stampMs: number) => ({
  v: 1 as const,
  robotId,
  source,
  seq: seqCounter++,
  stampMs,
});

export function jointState(
  profile: RobotProfile,
  at: number,
  q = HOME,
  effortsNm = [10, 40, 20, 2, 1, 0.5],
): TelemetryFrame {
  return {
    ...common(profile.robotId, 'joint_states', at),
    kind: 'joint-state',
    names: profile.joints.map((j) => j.name),
    positionsRad: [...q],
    velocitiesRadS: q.map(() => 0),
    effortsNm: [...effortsNm],
  };
}

export function proximity(
  robotId: string,
  source: string,
  at: number,
  nearestHumanM: number | null,
): TelemetryFrame {
  return { ...common(robotId, source, at), kind: 'proximity', nearestHumanM };
}

export function battery(
  robotId: string,
  at: number,
  over: Partial<{ voltageV: number; currentA: number; stateOfCharge: number }> = {},
): TelemetryFrame {
  return {
    ...common(robotId, 'battery', at),
    kind: 'battery',
    voltageV: 48,
    currentA: 2,
    stateOfCharge: 0.8,
    ...over,
  };
}

export function firmware(robotId: string, at: number, imageSha256 = FIRMWARE_SHA): TelemetryFrame {
  return { ...common(robotId, 'firmware', at), kind: 'firmware', imageSha256, version: '5.11.1' };
}

export function pose(robotId: string, at: number, x = 5, y = 0, yawRad = 0): TelemetryFrame {
  return {
    ...common(robotId, 'pose', at),
    kind: 'pose',
    positionM: { x, y, z: 0 },
    orientation: { x: 0, y: 0, z: Math.sin(yawRad / 2), w: Math.cos(yawRad / 2) },
  };
}

export function firmwareManifest(robotIds?: string[], signer = vendor): DsseEnvelope {
  return dsseSignStatement(
    PAYLOAD_TYPES.firmware,
    {
      v: 1,
      vendor: 'Example Robotics',
      model: 'UR5e-like',
      firmwareVersion: '5.11.1',
      imageSha256: FIRMWARE_SHA,
      issuedAt: T0 - 86_400_000,
      ...(robotIds ? { robotIds } : {}),
    },
    signer,
  );
}

export function calibration(
  robotId: string,
  sensorId: string,
  expiresAt = T0 + 86_400_000,
  signer = lab,
): DsseEnvelope {
  return dsseSignStatement(
    PAYLOAD_TYPES.calibration,
    {
      v: 1,
      lab: 'Example Calibration Lab',
      robotId,
      sensorId,
      calibrationId: `cal-${sensorId}`,
      issuedAt: T0 - 86_400_000,
      expiresAt,
    },
    signer,
  );
}

export function consent(
  intent: Intent,
  over: Partial<ConsentStatement> = {},
  signer = operator,
): DsseEnvelope {
  return dsseSignStatement(
    PAYLOAD_TYPES.consent,
    {
      v: 1,
      intentDigest: jcsDigestHex(intent),
      robotId: intent.robotId,
      operatorId: 'op-1',
      scope: 'safety-critical',
      notBefore: T0 - 1000,
      expiresAt: T0 + 60_000,
      nonce: `nonce-${Math.random().toString(36).slice(2)}-0123456789`,
      ...over,
    },
    signer,
  );
}

export interface GateSetup {
  gate: EdgeGate;
  profile: RobotProfile;
  sequence: SequenceStore;
}

/** A gate for `profile` with signed firmware and every required calibration loaded. */
export function makeGate(
  profile: RobotProfile = armProfile(),
  sequence: SequenceStore = new MemorySequenceStore(),
  spentConsentNonces?: SpentConsentNonces,
): GateSetup {
  const gate = new EdgeGate({
    profile,
    trust,
    hmacKey,
    sequence,
    clock: () => T0,
    ...(spentConsentNonces ? { spentConsentNonces } : {}),
  });
  gate.loadProvenance(
    {
      firmwareManifests: [firmwareManifest()],
      calibrationCertificates: profile.sensors
        .filter((s) => s.calibrationRequired)
        .map((s) => calibration(profile.robotId, s.id)),
    },
    T0,
  );
  return { gate, profile, sequence };
}

/** Feeds a full set of fresh, benign telemetry at `at`. */
export function feedHealthy(
  gate: EdgeGate,
  profile: RobotProfile,
  at = T0,
  nearestHumanM: number | null = null,
): void {
  const frames: TelemetryFrame[] = [battery(profile.robotId, at), firmware(profile.robotId, at)];
  if (profile.kind === 'arm') frames.push(jointState(profile, at));
  else frames.push(pose(profile.robotId, at));
  for (const s of profile.sources.filter((x) => x.kind === 'proximity'))
    frames.push(proximity(profile.robotId, s.name, at, nearestHumanM));
  for (const f of frames) {
    const r = gate.ingestTelemetry(f, at);
    if (!r.accepted) throw new Error(`fixture frame refused: ${r.reason}`);
  }
}

/**
 * A fresh intent id for every fixture intent: the gate refuses a copy of an intent it signed while that motion
 * may still run (signed-intents.ts), and a test asking twice means two requests.
 */
let fixtureIntents = 0;
const nextIntentId = (kind: string) => `int-${kind}-${++fixtureIntents}`;

/** A small, slow, low-torque move from HOME (needs no consent). */
export function armIntent(
  over: Partial<Extract<Intent, { kind: 'joint-trajectory' }>> = {},
): Extract<Intent, { kind: 'joint-trajectory' }> {
  const names = ARM.joints.map((j) => j.name);
  return {
    v: 1,
    kind: 'joint-trajectory',
    intentId: nextIntentId('arm'),
    robotId: 'ur5e-01',
    jointNames: names,
    points: [
      {
        positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.2 : q)),
        effortsNm: [20, 60, 30, 5, 2, 1],
        timeFromStartMs: 500,
      },
      {
        positionsRad: HOME.map((q, i) => (i === 0 ? q + 0.4 : q)),
        effortsNm: [20, 60, 30, 5, 2, 1],
        timeFromStartMs: 1000,
      },
    ],
    moveClass: 'pick',
    ...over,
  };
}

export function baseIntent(
  over: Partial<Extract<Intent, { kind: 'base-twist' }>> = {},
): Extract<Intent, { kind: 'base-twist' }> {
  return {
    v: 1,
    kind: 'base-twist',
    intentId: nextIntentId('base'),
    robotId: 'amr-07',
    linearMps: { x: 0.5, y: 0, z: 0 },
    angularRadS: { x: 0, y: 0, z: 0 },
    durationMs: 2000,
    moveClass: 'transit',
    ...over,
  };
}
