/**
 * Hot-path type guards for intents and telemetry frames: the same rules as `conforms(IntentSchema, v)` and
 * `conforms(TelemetryFrameSchema, v)`, faster. TypeBox checks `uniqueItems` by hashing every item
 * (FNV-1a over a structural walk), which was ≈4 % of trapAndSign; here the schema check runs without
 * `uniqueItems` and the joint names are checked with a Set. Error messages still come from the full schemas
 * (`schemaIssues(IntentSchema, v)`), which are unchanged and remain the published contract.
 */
import { conforms } from '../validate.js';
import { type Intent, IntentShapeSchema } from './intent.js';
import { type TelemetryFrame, TelemetryFrameShapeSchema } from './telemetry.js';

/** True when two entries of `names` are equal (JSON Schema `uniqueItems` for strings). */
export function hasDuplicateName(names: readonly string[]): boolean {
  if (names.length < 2) return false;
  return new Set(names).size !== names.length;
}

/** Same answer as `conforms(IntentSchema, value)`. */
export function isIntent(value: unknown): value is Intent {
  if (!conforms(IntentShapeSchema, value)) return false;
  return value.kind !== 'joint-trajectory' || !hasDuplicateName(value.jointNames);
}

/** Same answer as `conforms(TelemetryFrameSchema, value)`. */
export function isTelemetryFrame(value: unknown): value is TelemetryFrame {
  if (!conforms(TelemetryFrameShapeSchema, value)) return false;
  return value.kind !== 'joint-state' || !hasDuplicateName(value.names);
}
