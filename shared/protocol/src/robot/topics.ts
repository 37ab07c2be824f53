/**
 * MQTT topic names for one robot: `pentagate/v1/<robotId>/{cmd,intent,telemetry/<source>,consent,verdict}`.
 * The robot id is a topic level, so it is validated before use: a `+`, `#` or `/` in it would let a client
 * subscribe to, or publish under, another robot's topics (MQTT 3.1.1 §4.7.1, §4.7.3).
 */
import { InvalidInputError, describeValue } from '../errors.js';
import { conforms } from '../validate.js';
import { RobotIdSchema } from '../schemas/primitives.js';
import { SourceNameSchema } from './telemetry.js';

export const TOPIC_ROOT = 'pentagate/v1';

export interface RobotTopics {
  robotId: string;
  /** Signed motor commands, edge → controller (QoS 1, not retained). */
  cmd: string;
  /** Intents, planner → edge. */
  intent: string;
  /** Wildcard filter for every telemetry source of this robot. */
  telemetryFilter: string;
  /** Telemetry of one source. */
  telemetry(source: string): string;
  /** Consent tokens (DSSE envelopes), operator → edge. */
  consent: string;
  /** Verdict events, edge → anyone listening. */
  verdict: string;
}

/** Throws InvalidInputError unless `robotId` is a valid robot id (no MQTT wildcard or separator). */
export function assertRobotId(robotId: unknown): asserts robotId is string {
  if (!conforms(RobotIdSchema, robotId)) {
    throw new InvalidInputError(
      `robot id: expected 1..64 characters of letters, digits, '.', '_' or '-' starting with a letter or digit, got ${describeValue(robotId)}`,
    );
  }
}

export function robotTopics(robotId: string): RobotTopics {
  assertRobotId(robotId);
  const base = `${TOPIC_ROOT}/${robotId}`;
  return {
    robotId,
    cmd: `${base}/cmd`,
    intent: `${base}/intent`,
    telemetryFilter: `${base}/telemetry/+`,
    telemetry(source: string): string {
      if (!conforms(SourceNameSchema, source)) {
        throw new InvalidInputError(
          `telemetry source: expected 1..64 characters of letters, digits, '.', '_' or '-', got ${describeValue(source)}`,
        );
      }
      return `${base}/telemetry/${source}`;
    },
    consent: `${base}/consent`,
    verdict: `${base}/verdict`,
  };
}

export type RobotTopicKind = 'cmd' | 'intent' | 'telemetry' | 'consent' | 'verdict';

/** Splits a topic back into robot id, kind and (for telemetry) source; undefined when it is not ours. */
export function parseRobotTopic(
  topic: string,
): { robotId: string; kind: RobotTopicKind; source?: string } | undefined {
  const parts = topic.split('/');
  if (parts.length < 4 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return undefined;
  const robotId = parts[2];
  if (!conforms(RobotIdSchema, robotId)) return undefined;
  const kind = parts[3];
  if (kind === 'telemetry') {
    const source = parts[4];
    if (parts.length !== 5 || !conforms(SourceNameSchema, source)) return undefined;
    return { robotId, kind, source };
  }
  if (parts.length !== 4) return undefined;
  if (kind === 'cmd' || kind === 'intent' || kind === 'consent' || kind === 'verdict')
    return { robotId, kind };
  return undefined;
}
