/**
 * Every violation code the edge writes into a verdict (ARCHITECTURE.md §3, the five gates; §5 the node), in one
 * registry like the cloud's (agentgate/violation-codes.ts): the gates, the node, the simulator's scenario
 * expectations and the tests name codes from here, so a renamed or misspelt code fails to compile instead of
 * silently never matching. A violation on the wire stays one line, `CODE: detail`; codes are stable (operators
 * alert on them), details are for people and may change.
 *
 * Outcome: a gate code vetoes the intent (or, on a motion in progress, stops it); `INPUT.*` refuses the input
 * (`rejected-input`); `CONSENT.REQUIRED` alone parks the intent for an operator; `EDGE.*` is a protective STOP
 * the node itself ordered.
 */
import type { Vertex as VertexName } from '../schemas/kernel.js';

export type EdgeViolationSource = VertexName | 'INPUT' | 'EDGE';

export interface EdgeViolationInfo {
  readonly source: EdgeViolationSource;
  /** What the code means, in one sentence. */
  readonly meaning: string;
}

const stale = (source: VertexName) =>
  ({
    source,
    meaning: `a telemetry source ${source} needs is older than its maxAgeMs, or re-synchronising after a seq break (fail closed)`,
  }) as const;
const missing = (source: VertexName) =>
  ({
    source,
    meaning: `${source} has no frame (or no source in the profile) for data it needs (fail closed)`,
  }) as const;
const gateError = (source: VertexName) =>
  ({ source, meaning: `the ${source} gate threw; the intent is vetoed (fail closed)` }) as const;

export const EDGE_VIOLATION_CODES = {
  'INVARIANT.MEASURED_TORQUE': {
    source: 'INVARIANT',
    meaning: 'a joint measures more effort than its torque limit',
  },
  'INVARIANT.PLANNED_TORQUE': {
    source: 'INVARIANT',
    meaning: 'a trajectory point plans more effort than the torque limit',
  },
  'INVARIANT.POSITION_LIMIT': {
    source: 'INVARIANT',
    meaning: 'a joint position (measured or a waypoint) is outside its limits',
  },
  'INVARIANT.VELOCITY_LIMIT': {
    source: 'INVARIANT',
    meaning: 'a joint (or the base) would move faster than its velocity limit',
  },
  'INVARIANT.KEEP_OUT_PATH': { source: 'INVARIANT', meaning: 'the planned path enters a keep-out zone' },
  'INVARIANT.KEEP_OUT_STOP': {
    source: 'INVARIANT',
    meaning: 'a predicted stopping point along the path lies in a keep-out zone',
  },
  'INVARIANT.KEEP_OUT_NOT_LEFT': {
    source: 'INVARIANT',
    meaning: 'the robot starts inside a keep-out zone and the motion does not leave it',
  },
  'INVARIANT.KEEP_OUT_DEEPER': {
    source: 'INVARIANT',
    meaning:
      'the robot starts inside a keep-out zone or its margin and the motion takes a point of it deeper (closer)',
  },
  'INVARIANT.UNSUPPORTED_AXIS': {
    source: 'INVARIANT',
    meaning: 'a ground base was asked to climb, roll or pitch (linear.z, angular.x or angular.y set)',
  },
  'INVARIANT.PATH_TOO_LONG': {
    source: 'INVARIANT',
    meaning: 'checking the path against the keep-out zones would take more samples than a veto may wait for',
  },
  'INVARIANT.STALE_DATA': stale('INVARIANT'),
  'INVARIANT.MISSING_DATA': missing('INVARIANT'),
  'INVARIANT.GATE_ERROR': gateError('INVARIANT'),
  'ECONOMY.NO_ALLOCATION': {
    source: 'ECONOMY',
    meaning: 'the move class has no energy allocation in the profile',
  },
  'ECONOMY.OVER_ALLOCATION': {
    source: 'ECONOMY',
    meaning: "the move needs more energy than its class's allocation",
  },
  'ECONOMY.RESERVE': { source: 'ECONOMY', meaning: 'the move would take the battery below its reserve' },
  'ECONOMY.VOLTAGE_SAG': {
    source: 'ECONOMY',
    meaning: "the move's peak current would sag the battery voltage below its minimum",
  },
  'ECONOMY.STALE_DATA': stale('ECONOMY'),
  'ECONOMY.MISSING_DATA': missing('ECONOMY'),
  'ECONOMY.GATE_ERROR': gateError('ECONOMY'),
  'RISK.HUMAN_IN_RADIUS': {
    source: 'RISK',
    meaning: 'a human is inside the operating radius: no signature, and a running motion is stopped',
  },
  'RISK.SEPARATION': {
    source: 'RISK',
    meaning:
      'a human is closer than the ISO/TS 15066 protective separation distance even at the lowest speed',
  },
  'RISK.STALE_DATA': stale('RISK'),
  'RISK.MISSING_DATA': missing('RISK'),
  'RISK.GATE_ERROR': gateError('RISK'),
  'PROVENANCE.FIRMWARE_UNSIGNED': {
    source: 'PROVENANCE',
    meaning: 'the controller runs firmware no trusted vendor-signed manifest lists',
  },
  'PROVENANCE.CALIBRATION_MISSING': {
    source: 'PROVENANCE',
    meaning: 'a sensor has no signed calibration certificate',
  },
  'PROVENANCE.CALIBRATION_NOT_YET_VALID': {
    source: 'PROVENANCE',
    meaning: "a sensor's calibration certificates are all issued in the future",
  },
  'PROVENANCE.CALIBRATION_EXPIRED': { source: 'PROVENANCE', meaning: "a sensor's calibration has expired" },
  'PROVENANCE.STALE_DATA': stale('PROVENANCE'),
  'PROVENANCE.MISSING_DATA': missing('PROVENANCE'),
  'PROVENANCE.GATE_ERROR': gateError('PROVENANCE'),
  'CONSENT.REQUIRED': {
    source: 'CONSENT',
    meaning:
      'the move needs an operator-signed consent (high torque or safety-critical); alone it parks the intent',
  },
  'CONSENT.INVALID': {
    source: 'CONSENT',
    meaning: 'a consent token is not a valid DSSE consent statement signed by a trusted operator key',
  },
  'CONSENT.WRONG_ROBOT': { source: 'CONSENT', meaning: 'a consent token is for another robot' },
  'CONSENT.TOO_MANY_WAITING': {
    source: 'CONSENT',
    meaning: 'the intent needs consent, but as many intents as the edge holds already wait for one (vetoed)',
  },
  'CONSENT.NO_WAITING_INTENT': { source: 'CONSENT', meaning: "no intent with the token's digest is waiting" },
  'CONSENT.REPLAYED': { source: 'CONSENT', meaning: "the token's nonce was already used (single use)" },
  'CONSENT.NOT_YET_VALID': { source: 'CONSENT', meaning: 'the token is not valid yet (notBefore)' },
  'CONSENT.EXPIRED': { source: 'CONSENT', meaning: 'the token has expired (expiresAt)' },
  'CONSENT.WRONG_SCOPE': {
    source: 'CONSENT',
    meaning: 'a high-torque token for a move that needs safety-critical consent',
  },
  'CONSENT.DENIED': {
    source: 'CONSENT',
    meaning:
      'an operator signed a denial of the move (a consent statement with decision "deny"); it is vetoed',
  },
  'CONSENT.TIMEOUT': {
    source: 'CONSENT',
    meaning: "no valid consent arrived within the profile's consent timeout",
  },
  'CONSENT.MEASURED_HIGH_TORQUE': {
    source: 'CONSENT',
    meaning:
      "a move signed without consent measured an effort above the high-torque threshold (its plan's declared efforts were below it); the move is stopped",
  },
  'CONSENT.GATE_ERROR': gateError('CONSENT'),
  'INPUT.INTENT_INVALID': {
    source: 'INPUT',
    meaning: 'the intent does not match the schema or the profile (joints, point shapes, times)',
  },
  'INPUT.DUPLICATE_INTENT': {
    source: 'INPUT',
    meaning:
      'a copy of an intent signed earlier whose motion may still run (an MQTT redelivery); it is not signed again',
  },
  'INPUT.INTENT_RATE_LIMITED': {
    source: 'INPUT',
    meaning:
      'more intents a second than the edge takes (token bucket, `edge run --max-intents-per-second`); not judged, nothing signed',
  },
  'INPUT.INTERNAL_ERROR': {
    source: 'INPUT',
    meaning: 'the gate failed on this input; it is refused (fail closed)',
  },
  'INPUT.MALFORMED': {
    source: 'INPUT',
    meaning: 'the message is not one JSON document within the size limit',
  },
  'INPUT.UNKNOWN_TOPIC': {
    source: 'INPUT',
    meaning: 'a message arrived on a topic the edge does not handle',
  },
  'INPUT.GATE_FAULT': { source: 'INPUT', meaning: 'the gate threw on this message; nothing was signed' },
  'INPUT.TELEMETRY_MALFORMED': { source: 'INPUT', meaning: 'a telemetry frame does not match its schema' },
  'INPUT.TELEMETRY_WRONG_ROBOT': { source: 'INPUT', meaning: 'a telemetry frame names another robot' },
  'INPUT.TELEMETRY_UNKNOWN_SOURCE': {
    source: 'INPUT',
    meaning: 'a telemetry frame from a source the profile lacks',
  },
  'INPUT.TELEMETRY_WRONG_TOPIC': {
    source: 'INPUT',
    meaning: 'a telemetry frame names another source than the topic it arrived on',
  },
  'INPUT.TELEMETRY_WRONG_KIND': {
    source: 'INPUT',
    meaning: "a telemetry frame of another kind than its source's",
  },
  'INPUT.TELEMETRY_OUT_OF_RANGE': {
    source: 'INPUT',
    meaning: 'a telemetry value outside its physical range',
  },
  'INPUT.TELEMETRY_OUT_OF_ORDER': {
    source: 'INPUT',
    meaning: "a telemetry frame's seq is not after the source's last one (the source re-synchronises)",
  },
  'INPUT.TELEMETRY_DUPLICATE': { source: 'INPUT', meaning: 'a telemetry frame repeats a seq already taken' },
  'INPUT.TELEMETRY_UNAUTHENTICATED': {
    source: 'INPUT',
    meaning: 'a frame of an authenticated source without a valid sensor HMAC',
  },
  'EDGE.OUTBOX_FAILED': {
    source: 'EDGE',
    meaning: 'the audit outbox cannot record: the command is withheld and the robot stopped',
  },
  'EDGE.SHUTDOWN': { source: 'EDGE', meaning: 'the edge is stopping and stops the robot first' },
  'EDGE.CLOCK_STEP': {
    source: 'EDGE',
    meaning:
      "the edge's wall clock stepped: frame ages and a motion's end are measured on it, so the robot is stopped",
  },
  'EDGE.STOP_OWED': {
    source: 'EDGE',
    meaning: 'a STOP could not be published while the link was down; a fresh one is sent once it is back',
  },
  'EDGE.COMMAND_UNSENT': {
    source: 'EDGE',
    meaning:
      'a signed motion command could not be published: the gate monitors its plan, not the motion the robot may still run, so the robot is stopped',
  },
  'EDGE.STARTED': {
    source: 'EDGE',
    meaning: 'the edge started and stops any motion an earlier process signed (it cannot monitor it)',
  },
} as const satisfies Record<string, EdgeViolationInfo>;

export type EdgeViolationCode = keyof typeof EDGE_VIOLATION_CODES;

/** Codes `edge` node refusals and stops take (`INPUT.<code>`, `EDGE.<code>`), without their prefix. */
export type InputRefusalCode = EdgeViolationCode extends infer C
  ? C extends `INPUT.${infer R}`
    ? R
    : never
  : never;
export type EdgeStopCode = EdgeViolationCode extends infer C
  ? C extends `EDGE.${infer R}`
    ? R
    : never
  : never;

/** One violation line: `CODE: detail`. */
export function edgeViolation(code: EdgeViolationCode, detail: string): string {
  return `${code}: ${detail}`;
}

/** The registered code a violation line starts with, or undefined (a line from elsewhere, or malformed). */
export function edgeViolationCode(violation: string): EdgeViolationCode | undefined {
  const colon = violation.indexOf(':');
  const code = colon < 0 ? violation : violation.slice(0, colon);
  return Object.hasOwn(EDGE_VIOLATION_CODES, code) ? (code as EdgeViolationCode) : undefined;
}

/** Whether `violations` contains `code`. */
export function hasEdgeViolation(violations: readonly string[], code: EdgeViolationCode): boolean {
  return violations.some((v) => edgeViolationCode(v) === code);
}
