/**
 * The arm's skeleton as the keep-out sweep checks it: not only the frame origins (the joint centres and the
 * flange) but points along every link between them, so a link that passes through a zone while both of its
 * ends stay outside is caught. A UR5e's upper arm is 0.425 m between its frame origins; a 0.1 m post between
 * them was invisible to a check of the origins alone.
 *
 * The skeleton is the classic DH chain's own polyline: from frame i−1's origin along its z axis by dᵢ (the
 * corner), then along frame i's x axis by aᵢ to frame i's origin (ⁱ⁻¹Tᵢ = Rot_z · Trans_z(d) · Trans_x(a) ·
 * Rot_x, forward-kinematics.ts). Each leg is cut into ⌈|leg| / spacingM⌉ pieces, so every point of the
 * skeleton lies within spacingM / 2 of a checked point. It models the links as lines: a link's own thickness
 * belongs in the zones' margins (see the edge README), as the frame origins' did before.
 */
import { type DhTable, frameOrigins } from './forward-kinematics.js';

export interface ArmSkeleton {
  /** Checked points per pose. */
  readonly points: number;
  /** Joints (frames 1..n). */
  readonly joints: number;
  /** Per point: the frame (0-based) at the far end of the link the point lies on. */
  readonly frameOf: Int32Array;
  /** Per point: how far along its link's legs, (0, 1]; 1 is the frame origin itself. */
  readonly alongLink: Float64Array;
  /** Per joint: pieces its dᵢ leg and its aᵢ leg are cut into (0 for a leg of length 0). */
  readonly dPieces: Int32Array;
  readonly aPieces: Int32Array;
  /** Work arrays for the frame origins and z axes, reused from pose to pose. */
  readonly origins: Float64Array;
  readonly zAxes: Float64Array;
}

/** Skeletons by DH table and spacing: a compiled profile's table is one object for the process's life. */
const cache = new WeakMap<DhTable, Map<number, ArmSkeleton>>();

/** The skeleton of `dh` with checked points at most `spacingM` apart along every leg. */
export function armSkeleton(dh: DhTable, spacingM: number): ArmSkeleton {
  let bySpacing = cache.get(dh);
  if (!bySpacing) {
    bySpacing = new Map();
    cache.set(dh, bySpacing);
  }
  const known = bySpacing.get(spacingM);
  if (known) return known;
  const joints = dh.length / 5;
  const dPieces = new Int32Array(joints);
  const aPieces = new Int32Array(joints);
  const frameOf: number[] = [];
  const alongLink: number[] = [];
  for (let i = 0; i < joints; i++) {
    const dM = Math.abs(dh[5 * i + 1]!);
    const aM = Math.abs(dh[5 * i]!);
    dPieces[i] = Math.ceil(dM / spacingM);
    aPieces[i] = Math.ceil(aM / spacingM);
    const linkM = dM + aM;
    for (let k = 1; k <= dPieces[i]!; k++) alongLink.push((dM * k) / dPieces[i]! / linkM);
    for (let k = 1; k <= aPieces[i]!; k++) alongLink.push((dM + (aM * k) / aPieces[i]!) / linkM);
    // A frame on top of the previous one (aᵢ = dᵢ = 0) still has its origin checked.
    if (dPieces[i] === 0 && aPieces[i] === 0) alongLink.push(1);
    while (frameOf.length < alongLink.length) frameOf.push(i);
  }
  const skeleton: ArmSkeleton = {
    points: frameOf.length,
    joints,
    frameOf: Int32Array.from(frameOf),
    alongLink: Float64Array.from(alongLink),
    dPieces,
    aPieces,
    origins: new Float64Array(3 * joints),
    zAxes: new Float64Array(3 * joints),
  };
  bySpacing.set(spacingM, skeleton);
  return skeleton;
}

/**
 * Writes the skeleton's points (x, y, z each, metres, in the order of `frameOf`) for joint positions `qRad`
 * into `out` (length ≥ 3 · points) and returns it. The base (frame 0's origin) never moves and is not listed.
 */
export function skeletonPoints(
  dh: DhTable,
  skeleton: ArmSkeleton,
  qRad: ArrayLike<number>,
  out: Float64Array,
): Float64Array {
  const { origins, zAxes, dPieces, aPieces } = skeleton;
  frameOrigins(dh, qRad, origins, zAxes);
  let p = 0;
  let fromX = 0;
  let fromY = 0;
  let fromZ = 0;
  for (let i = 0; i < skeleton.joints; i++) {
    const dM = dh[5 * i + 1]!;
    const cornerX = fromX + dM * zAxes[3 * i]!;
    const cornerY = fromY + dM * zAxes[3 * i + 1]!;
    const cornerZ = fromZ + dM * zAxes[3 * i + 2]!;
    const toX = origins[3 * i]!;
    const toY = origins[3 * i + 1]!;
    const toZ = origins[3 * i + 2]!;
    p = legPoints(out, p, fromX, fromY, fromZ, cornerX, cornerY, cornerZ, dPieces[i]!);
    p = legPoints(out, p, cornerX, cornerY, cornerZ, toX, toY, toZ, aPieces[i]!);
    if (dPieces[i] === 0 && aPieces[i] === 0) p = legPoints(out, p, toX, toY, toZ, toX, toY, toZ, 1);
    fromX = toX;
    fromY = toY;
    fromZ = toZ;
  }
  return out;
}

/** Writes the `pieces` points that cut the leg (ax, ay, az) → (bx, by, bz), its end included, from `out[p]`. */
function legPoints(
  out: Float64Array,
  p: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  pieces: number,
): number {
  for (let k = 1; k <= pieces; k++) {
    const u = k / pieces;
    out[p++] = ax + (bx - ax) * u;
    out[p++] = ay + (by - ay) * u;
    out[p++] = az + (bz - az) * u;
  }
  return p;
}

/** How a checked point reads in a violation: `frame 3`, or `the link to frame 3 (40 % along)`. */
export function skeletonPointName(frame: number, alongLink: number): string {
  return alongLink === 1
    ? `frame ${frame + 1}`
    : `the link to frame ${frame + 1} (${Math.round(alongLink * 100)} % along)`;
}
