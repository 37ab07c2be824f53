/**
 * A complete, passing setup for runtime tests: a UR5e-like arm profile with an inline trust document,
 * vendor and operator keys, a signed firmware manifest, an EdgeGate, and telemetry frames that pass every
 * gate. Each test changes one thing (a human steps in, a frame is garbage) and watches what the node does.
 */
import { randomBytes } from 'node:crypto';
import {
  createEd25519Signer,
  dsseSignStatement,
  ed25519KeyId,
  generateEd25519,
  hmacKeyId,
  signTelemetryFrame,
  TrustStore,
} from '@pentagate/crypto';
import {
  type Intent,
  PAYLOAD_TYPES,
  type RobotProfile,
  type TelemetryFrame,
  toBase64Url,
  type TrustedKey,
} from '@pentagate/protocol';
import { EdgeGate } from '../../../src/trap/edge-gate.js';
import { MemorySequenceStore, type SequenceStore } from '../../../src/trap/sequence-store.js';

export const FIRMWARE_SHA256 = 'ab'.repeat(32);
const JOINTS = ['shoulder_pan', 'shoulder_lift', 'elbow', 'wrist_1', 'wrist_2', 'wrist_3'];
// UR5e classic DH parameters (Universal Robots, "DH parameters for calculations of kinematics").
const DH = [
  { aM: 0, dM: 0.1625, alphaRad: Math.PI / 2 },
  { aM: -0.425, dM: 0, alphaRad: 0 },
  { aM: -0.3922, dM: 0, alphaRad: 0 },
  { aM: 0, dM: 0.1333, alphaRad: Math.PI / 2 },
  { aM: 0, dM: 0.0997, alphaRad: -Math.PI / 2 },
  { aM: 0, dM: 0.0996, alphaRad: 0 },
];

function trusted(publicKey: Uint8Array, role: TrustedKey['role']): TrustedKey {
  return { kid: ed25519KeyId(publicKey), alg: 'Ed25519', role, publicKey: toBase64Url(publicKey) };
}

export interface ArmFixture {
  robotId: string;
  profile: RobotProfile;
  trust: TrustStore;
  hmacKey: { kid: string; key: Uint8Array };
  operatorSeed: Uint8Array;
  vendorSeed: Uint8Array;
  firmwareManifest: unknown;
  /** A fresh gate with the firmware manifest loaded. */
  makeGate(sequence?: SequenceStore, clock?: () => number): EdgeGate;
  /** Telemetry frames that pass every gate at `nowMs`; `seq` must grow per source. */
  passingFrames(seq: number, nowMs: number): TelemetryFrame[];
  /** The proximity frame, signed by `proximityKey` when the fixture has one. */
  proximityFrame(seq: number, nowMs: number, nearestHumanM: number | null): TelemetryFrame;
  /** A slow move of all six joints (a few hundredths of a radian), well inside every limit. */
  smallMove(intentId: string, points?: number): Intent;
}

export interface ArmFixtureOptions {
  robotId?: string;
  /** maxAgeMs of the joint-state and proximity sources (default 5000: generous, tests run under load). */
  fastSourceMaxAgeMs?: number;
  /** How long an intent waits for consent (default 30 s). */
  consentTimeoutMs?: number;
  /** Mark the proximity source `authenticated` by this sensor key; the fixture's frames are signed with it. */
  proximityKey?: Uint8Array;
}

export function armFixture(options: ArmFixtureOptions = {}): ArmFixture {
  const robotId = options.robotId ?? 'r1';
  const fastMaxAgeMs = options.fastSourceMaxAgeMs ?? 5_000;
  const proximityKey = options.proximityKey;
  const sensorKeys = new Map(proximityKey ? [[hmacKeyId(proximityKey), proximityKey]] : []);
  const signed = (frame: TelemetryFrame): TelemetryFrame =>
    proximityKey && frame.kind === 'proximity' ? signTelemetryFrame(proximityKey, frame) : frame;
  const vendor = generateEd25519();
  const operator = generateEd25519();
  const key = new Uint8Array(randomBytes(32));
  const trustDocument = {
    keys: [trusted(vendor.publicKey, 'vendor'), trusted(operator.publicKey, 'operator')],
  };
  const profile: RobotProfile = {
    v: 1,
    robotId,
    kind: 'arm',
    joints: JOINTS.map((name, i) => ({
      name,
      torqueLimitNm: i < 3 ? 150 : 28,
      positionLimitsRad: { min: -2 * Math.PI, max: 2 * Math.PI },
      velocityLimitRadS: Math.PI,
      dh: { ...(DH[i] as (typeof DH)[number]), thetaOffsetRad: 0 },
    })),
    keepOut: {
      minZoneThicknessM: 0.05,
      zones: [{ id: 'far-wall', shape: 'box', minM: { x: 3, y: -1, z: 0 }, maxM: { x: 3.5, y: 1, z: 2 } }],
    },
    risk: {
      operatingRadiusM: 1.2,
      ssm: {
        enabled: false,
        robotSpeedMps: 1,
        reactionTimeS: 0.1,
        stoppingTimeS: 0.3,
        stoppingDistanceM: 0.2,
        intrusionDistanceM: 0.2,
        humanPositionUncertaintyM: 0.1,
        robotPositionUncertaintyM: 0.05,
      },
    },
    battery: {
      capacityWh: 500,
      internalResistanceOhm: 0.05,
      nominalVoltageV: 48,
      minVoltageV: 40,
      efficiency: 0.8,
      idlePowerW: 50,
      reserveWh: 50,
      allocationsWh: { default: 20 },
    },
    consent: {
      highTorqueThresholdNm: 100,
      safetyCriticalMoveClasses: ['critical'],
      timeoutMs: options.consentTimeoutMs ?? 30_000,
    },
    trust: { document: trustDocument },
    sensors: [],
    sources: [
      { name: 'joints', kind: 'joint-state', maxAgeMs: fastMaxAgeMs },
      {
        name: 'proximity',
        kind: 'proximity',
        maxAgeMs: fastMaxAgeMs,
        ...(proximityKey ? { authenticated: true, macKeyId: hmacKeyId(proximityKey) } : {}),
      },
      { name: 'battery', kind: 'battery', maxAgeMs: 60_000 },
      { name: 'firmware', kind: 'firmware', maxAgeMs: 600_000 },
    ],
    command: { validForMs: 500 },
  };
  const trust = TrustStore.fromDocument(trustDocument);
  const firmwareManifest = dsseSignStatement(
    PAYLOAD_TYPES.firmware,
    {
      v: 1,
      vendor: 'Universal Robots',
      model: 'UR5e',
      firmwareVersion: '5.15.0',
      imageSha256: FIRMWARE_SHA256,
      issuedAt: Date.now() - 86_400_000,
    },
    createEd25519Signer(vendor.privateKey),
  );
  const hmacKey = { kid: hmacKeyId(key), key };
  return {
    robotId,
    profile,
    trust,
    hmacKey,
    operatorSeed: operator.privateKey,
    vendorSeed: vendor.privateKey,
    firmwareManifest,
    makeGate(sequence = new MemorySequenceStore(), clock = Date.now) {
      const gate = new EdgeGate({ profile, trust, hmacKey, sensorKeys, sequence, clock });
      const report = gate.loadProvenance({ firmwareManifests: [firmwareManifest] });
      if (report.accepted !== 1)
        throw new Error(`fixture manifest refused: ${JSON.stringify(report.rejected)}`);
      return gate;
    },
    passingFrames: (seq, nowMs) => passingFrames(robotId, seq, nowMs).map(signed),
    proximityFrame: (seq, nowMs, nearestHumanM) =>
      signed({ v: 1, robotId, seq, stampMs: nowMs, source: 'proximity', kind: 'proximity', nearestHumanM }),
    smallMove: (intentId, points = 20) => smallMove(robotId, intentId, points),
  };
}

function passingFrames(robotId: string, seq: number, nowMs: number): TelemetryFrame[] {
  const common = { v: 1 as const, robotId, seq, stampMs: nowMs };
  return [
    {
      ...common,
      source: 'joints',
      kind: 'joint-state',
      names: JOINTS,
      positionsRad: [0, -1.57, 1.2, -1.2, -1.57, 0],
      velocitiesRadS: [0, 0, 0, 0, 0, 0],
      effortsNm: [1, 20, 10, 2, 1, 0.5],
    },
    { ...common, source: 'proximity', kind: 'proximity', nearestHumanM: 4 },
    { ...common, source: 'battery', kind: 'battery', voltageV: 48, currentA: 2, stateOfCharge: 0.9 },
    { ...common, source: 'firmware', kind: 'firmware', imageSha256: FIRMWARE_SHA256, version: '5.15.0' },
  ];
}

function smallMove(robotId: string, intentId: string, points: number): Intent {
  const start = [0, -1.57, 1.2, -1.2, -1.57, 0];
  return {
    v: 1,
    intentId,
    robotId,
    kind: 'joint-trajectory',
    jointNames: JOINTS,
    points: Array.from({ length: points }, (_, i) => ({
      positionsRad: start.map((p) => p + ((i + 1) / points) * 0.05),
      velocitiesRadS: start.map(() => 0.05),
      effortsNm: [1, 25, 12, 2, 1, 0.5],
      timeFromStartMs: (i + 1) * 100,
    })),
  };
}
