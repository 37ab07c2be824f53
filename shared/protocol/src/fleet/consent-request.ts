/**
 * The consent relay's wire contract (ARCHITECTURE.md §4 CONSENT over the fleet link). An edge holding an
 * intent for an operator's consent posts a ConsentRequest to the cloud: the intent itself (the operator signs
 * its digest) and what an operator needs to judge it — the move class, the peak planned torque against the
 * threshold and the joints' limits, and the tool path against the keep-out zones. The operator signs a
 * consent statement with their own Ed25519 key (in the console or with `pentagate consent grant`); the cloud
 * only checks and relays that token back over the link the edge opened, and the edge verifies it as it
 * verifies one published on its consent topic.
 */
import { type Static, Type } from '@sinclair/typebox';
import { KeepOutZoneSchema } from '../robot/profile.js';
import { type Intent, IntentSchema } from '../robot/intent.js';
import { ConsentScopeSchema } from '../schemas/consent.js';
import { DsseEnvelopeSchema } from '../schemas/dsse.js';
import {
  IdentifierSchema,
  IsoTimestampSchema,
  RobotIdSchema,
  Sha256HexSchema,
  UnixMsSchema,
} from '../schemas/primitives.js';
import { TrustedKeySchema } from '../schemas/trust.js';

const Metres = Type.Number({ minimum: -1e4, maximum: 1e4 });

export const PathPointSchema = Type.Object(
  { xM: Metres, yM: Metres, zM: Metres, tMs: Type.Number({ minimum: 0, maximum: 1e9 }) },
  { additionalProperties: false },
);
export type PathPoint = Static<typeof PathPointSchema>;

export const ConsentRequestSchema = Type.Object(
  {
    v: Type.Literal(1),
    robotId: RobotIdSchema,
    intentId: IdentifierSchema,
    /** SHA-256 of the JCS intent: what the consent statement must name. */
    intentDigest: Sha256HexSchema,
    intent: IntentSchema,
    scope: ConsentScopeSchema,
    /** Why consent is needed, one line each (the CONSENT gate's reasons). */
    reasons: Type.Array(Type.String({ maxLength: 512 }), { maxItems: 16 }),
    moveClass: Type.Optional(Type.String({ maxLength: 128 })),
    /** Peak planned joint effort of the move (joint limits assumed where the plan gives none), N·m. */
    peakEffortNm: Type.Number({ minimum: 0, maximum: 1e6 }),
    highTorqueThresholdNm: Type.Number({ minimum: 0, maximum: 1e6 }),
    /** The profile's torque limit per joint, in the profile's joint order, N·m. */
    torqueLimitsNm: Type.Array(Type.Number({ minimum: 0, maximum: 1e6 }), { maxItems: 64 }),
    /** The tool (last frame) at each planned point, base frame; empty for moves without a joint path. */
    pathM: Type.Array(PathPointSchema, { maxItems: 1024 }),
    /** The profile's keep-out zones, to draw the path against. */
    zones: Type.Array(KeepOutZoneSchema, { maxItems: 256 }),
    /** When the edge parked the intent, and when it stops waiting (Unix ms, the edge's clock). */
    requestedAtMs: UnixMsSchema,
    deadlineMs: UnixMsSchema,
  },
  { additionalProperties: false },
);
export type ConsentRequest = Static<typeof ConsentRequestSchema>;

/** An operator's consent token (a DSSE envelope of a ConsentStatement), relayed as it was signed. */
export const ConsentGrantSchema = Type.Object({ token: DsseEnvelopeSchema }, { additionalProperties: false });
export type ConsentGrant = Static<typeof ConsentGrantSchema>;

/**
 * Most intents one robot may have waiting for consent at once: the edge parks no more (a further one is vetoed
 * CONSENT.TOO_MANY_WAITING), the cloud stores no more requests per robot (429), and one relay answer carries the
 * tokens of all of them.
 */
export const MAX_WAITING_CONSENTS_PER_ROBOT = 64;

/** What the cloud relays to an edge: the tokens granted for its waiting intents since it last asked. */
export const ConsentRelaySchema = Type.Object(
  {
    robotId: RobotIdSchema,
    tokens: Type.Array(DsseEnvelopeSchema, { maxItems: MAX_WAITING_CONSENTS_PER_ROBOT }),
  },
  { additionalProperties: false },
);
export type ConsentRelay = Static<typeof ConsentRelaySchema>;

/** The cloud's answer to a posted request: stored now, or already known (a repeat). */
export const ConsentRequestPostedSchema = Type.Object(
  { stored: Type.Boolean(), auditIndex: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);

/** The cloud's answer to an edge closing a request: taken out of the queue now, or not waiting there. */
export const ConsentRequestClosedSchema = Type.Object(
  { closed: Type.Boolean(), auditIndex: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);

/** The operator keys an edge trusts through the registry: trust entries of role `operator`. */
export const OperatorKeysSchema = Type.Object(
  { keys: Type.Array(TrustedKeySchema, { maxItems: 1024 }) },
  { additionalProperties: false },
);

/**
 * A waiting robot consent request as the approvals queue serves it (`GET /api/v1/approvals` `robotConsents`,
 * `GET /api/v1/fleet/consent-requests` `items`), read by the console and `pentagate consent pending|grant`.
 */
export const RobotConsentItemSchema = Type.Object(
  {
    robotId: RobotIdSchema,
    intentDigest: Sha256HexSchema,
    request: ConsentRequestSchema,
    createdAt: IsoTimestampSchema,
    /** The edge's deadline: after it the edge has vetoed the move. */
    expiresAt: IsoTimestampSchema,
    /** Where to POST `{ token }`. */
    grantPath: Type.String(),
    /** Where a signed denial goes (decision `deny`): the edge vetoes the move at once. */
    denyPath: Type.String(),
  },
  { additionalProperties: false },
);
export type RobotConsentItem = Static<typeof RobotConsentItemSchema>;

export const RobotConsentListSchema = Type.Object(
  { items: Type.Array(RobotConsentItemSchema) },
  { additionalProperties: false },
);

/**
 * The peak |effort| an intent itself declares, N·m: over every point's `effortsNm` (the edge's CONSENT gate
 * reads the same values, edge/src/gates/consent.ts), 0 for a base twist, and undefined for a trajectory that
 * declares no efforts (the edge then assumes the joints' torque limits). A request's `peakEffortNm` is the
 * edge's word and is not signed; the intent is what the operator signs, so a request that shows a lower peak
 * than its own intent declares would have the operator consent to more torque than the card says.
 */
export function declaredPeakEffortNm(intent: Intent): number | undefined {
  if (intent.kind !== 'joint-trajectory') return 0;
  if (!intent.points.some((p) => p.effortsNm !== undefined)) return undefined;
  let peakNm = 0;
  for (const p of intent.points) for (const e of p.effortsNm ?? []) peakNm = Math.max(peakNm, Math.abs(e));
  return peakNm;
}

/** Rounding the edge applies to `peakEffortNm` (3 decimals, edge/src/gates/consent-request.ts). */
const PEAK_EFFORT_ROUNDING_NM = 0.0005;

/**
 * Why a request's figures understate what its intent declares (the peak effort below the intent's own
 * efforts, or below the torque limits the edge assumes for an intent without efforts), or undefined.
 */
export function understatedPeakEffort(request: ConsentRequest): string | undefined {
  const declared = declaredPeakEffortNm(request.intent);
  const floorNm = declared ?? Math.max(0, ...request.torqueLimitsNm);
  if (request.peakEffortNm + PEAK_EFFORT_ROUNDING_NM >= floorNm) return undefined;
  return declared === undefined
    ? `peakEffortNm ${request.peakEffortNm} is below the torque limit ${floorNm} N·m the edge assumes for an intent that declares no efforts`
    : `peakEffortNm ${request.peakEffortNm} is below the ${floorNm} N·m the intent itself declares`;
}
