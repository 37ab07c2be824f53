/**
 * What a scenario run records: the robot's ground truth at every step, the telemetry the robot published,
 * the verdicts the edge published, the controller's acceptances, refusals and halts, and the moments intents
 * and consents went out. Expectations and the HTML report are computed from this alone.
 */
import type { VerdictEvent } from '@pentagate/protocol';
import type { ControllerEvent } from '../controller/motor-controller.js';
import type { RobotSample } from '../robot/simulated-robot.js';

export interface PublishedProximity {
  /** Wall clock when the frame was handed to the broker, Unix ms. */
  atMs: number;
  source: string;
  nearestHumanM: number | null;
}

export interface TraceEvent {
  /** Scenario time, ms. */
  tMs: number;
  kind: 'intent' | 'consent' | 'inject' | 'fault' | 'battery' | 'firmware' | 'effort' | 'error';
  detail: string;
}

export interface ScenarioTrace {
  startedAtMs: number;
  samples: RobotSample[];
  proximity: PublishedProximity[];
  verdicts: { receivedAtMs: number; verdict: VerdictEvent }[];
  controller: ControllerEvent[];
  events: TraceEvent[];
  /** Intent publish times by intent id, Unix ms. */
  intentsAtMs: Map<string, number>;
  /** The operating radius the scenario's expectations use, m. */
  radiusM: number;
}
