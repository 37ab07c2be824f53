/**
 * Replaying the edge's own recordings (`edge run --record OUT.mcap`, verdict-recorder.ts). Their
 * `/pentagate/input` channel holds every inbound message as it arrived, in the MQTT topic layout
 * (`pentagate/v1/<robotId>/{intent,telemetry/<source>,consent}`), so a replay feeds exactly what the live gate
 * received, at the time it received it. The recorded outputs (verdicts, evidence, commands, diagnostics) are what
 * the edge decided then: they are counted, not fed. A recording of outputs alone (`edge replay --record`) has
 * nothing to replay and is refused by name.
 */
import type { Intent, TelemetryFrame } from '@pentagate/protocol';
import { parseRobotTopic } from '@pentagate/protocol';

export const OWN_INPUT_TYPE = 'pentagate.InboundMessage';
export const OWN_OUTPUT_TYPES: ReadonlySet<string> = new Set([
  'pentagate.VerdictEvent',
  'pentagate.VerdictEvidence',
  'pentagate.MotorCommand',
]);
export const OWN_DIAGNOSTICS_TOPIC = '/pentagate/diagnostics';

export type OwnInput =
  | { kind: 'telemetry'; frame: TelemetryFrame }
  | { kind: 'intent'; intent: Intent }
  | { kind: 'consent'; envelope: unknown }
  | { kind: 'skip'; reason: 'other-robot' | 'not-an-input' | 'unparsed-input'; detail: string };

/** What one recorded input was. The gate validates its content, as it did live. */
export function ownInput(recorded: unknown, robotId: string): OwnInput {
  const { topic, message } = (recorded ?? {}) as { topic?: unknown; message?: unknown };
  const where = typeof topic === 'string' ? parseRobotTopic(topic) : undefined;
  if (!where) return { kind: 'skip', reason: 'not-an-input', detail: `recorded input on ${String(topic)}` };
  if (where.robotId !== robotId) {
    return {
      kind: 'skip',
      reason: 'other-robot',
      detail: `recorded for robot ${where.robotId}, the profile is ${robotId}`,
    };
  }
  const unparsed = (message as { unparsed?: unknown } | null)?.unparsed;
  if (typeof unparsed === 'string') return { kind: 'skip', reason: 'unparsed-input', detail: unparsed };
  switch (where.kind) {
    case 'telemetry':
      return { kind: 'telemetry', frame: message as TelemetryFrame };
    case 'intent':
      return { kind: 'intent', intent: message as Intent };
    case 'consent':
      return { kind: 'consent', envelope: message };
    default:
      return { kind: 'skip', reason: 'not-an-input', detail: `recorded input on ${where.kind}` };
  }
}

/** The refusal for a recording that holds the edge's decisions but none of its inputs. */
export function outputsOnlyMessage(outputs: number): string {
  return (
    `the recording holds ${outputs} of the edge's own outputs (verdicts, evidence, commands) and no inputs: ` +
    'it was written by `edge replay --record`, which records decisions only. Replay the original recording, or ' +
    'one written by `edge run --record`, which also records every input'
  );
}
