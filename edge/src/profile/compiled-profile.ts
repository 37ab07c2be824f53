/**
 * A loaded robot profile with what every gate derives from it computed once: its digest (the `cfgDigest`
 * of every signed command), joint lookup, DH table and lever arms, the sources of each kind, and the
 * defaults the schema leaves optional.
 */
import { jcsDigestHex } from '@pentagate/crypto';
import type { DhParameters, RobotProfile } from '@pentagate/protocol';
import { type DhTable, dhTable, leverArmsM } from '../kinematics/forward-kinematics.js';

/** ISO/TS 15066:2016 §5.5.4 (after ISO 13855): human walking speed when not measured, m/s. */
export const DEFAULT_HUMAN_SPEED_MPS = 1.6;
/** Slowest speed cap RISK offers instead of a veto when the profile does not say. */
export const DEFAULT_MIN_SPEED_SCALE = 0.1;

export interface CompiledProfile {
  readonly profile: RobotProfile;
  /** SHA-256 of the JCS profile. */
  readonly cfgDigest: string;
  readonly jointIndex: ReadonlyMap<string, number>;
  readonly dh: readonly DhParameters[];
  /** `dh` with the constant trigonometry done once, for the path sweep. */
  readonly dhTable: DhTable;
  readonly leverArmsM: readonly number[];
  readonly jointStateSources: readonly string[];
  readonly poseSource: string | undefined;
  readonly proximitySources: readonly string[];
  readonly batterySource: string | undefined;
  readonly firmwareSource: string | undefined;
  readonly humanSpeedMps: number;
  readonly minSpeedScale: number;
}

export function compileProfile(profile: RobotProfile): CompiledProfile {
  const ofKind = (kind: string) => profile.sources.filter((s) => s.kind === kind).map((s) => s.name);
  const dh = profile.joints.map((j) => j.dh);
  return {
    profile,
    cfgDigest: jcsDigestHex(profile),
    jointIndex: new Map(profile.joints.map((j, i) => [j.name, i])),
    dh,
    dhTable: dhTable(dh),
    leverArmsM: leverArmsM(dh),
    jointStateSources: ofKind('joint-state'),
    poseSource: ofKind('pose')[0],
    proximitySources: profile.risk.proximitySources ?? ofKind('proximity'),
    batterySource: ofKind('battery')[0],
    firmwareSource: ofKind('firmware')[0],
    humanSpeedMps: profile.risk.ssm.humanSpeedMps ?? DEFAULT_HUMAN_SPEED_MPS,
    minSpeedScale: profile.risk.ssm.minSpeedScale ?? DEFAULT_MIN_SPEED_SCALE,
  };
}
