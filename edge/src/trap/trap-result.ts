/** What `EdgeGate.trapAndSign`, `submitConsent` and `expireConsents` return (ARCHITECTURE.md §4). */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';

export type TrapResult =
  | { kind: 'signed'; command: MotorCommand; verdict: VerdictEvent }
  | { kind: 'veto'; verdict: VerdictEvent }
  | { kind: 'awaiting-consent'; verdict: VerdictEvent; intentDigest: string };

/** A motion stopped: its signed STOP and the `stopped` verdict (`EdgeGate.monitor`). */
export interface MotionStop {
  stop: MotorCommand;
  verdict: VerdictEvent;
}

/** What `EdgeGate.ingestTelemetry` and `EdgeGate.monitor` return. */
export interface TelemetryOutcome {
  accepted: boolean;
  /** Joint names not in the profile that this accepted frame was the first to carry (ignored; report once). */
  newlyIgnoredJoints?: string[];
  /** Why the frame was refused (a telemetry rejection reason and the detail). */
  reason?: string;
  /** A signed STOP, when the re-check of the motion in progress failed. */
  stop?: MotorCommand;
  /** The verdict for a refused frame ('rejected-input') or a stop ('stopped'). */
  verdict?: VerdictEvent;
}
