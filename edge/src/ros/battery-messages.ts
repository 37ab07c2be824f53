/**
 * sensor_msgs/BatteryState → the body of a battery frame. Throws MappingSkip or FieldProblem.
 *
 * The message definition: "Fields that are unmeasured should be set to NaN"; `voltage` is mandatory, `current`,
 * `charge`, `capacity`, `temperature` and `percentage` may be NaN. An unmeasured field is not used and refuses
 * nothing by itself:
 *   - `current` NaN: the frame's present draw is 0 A, so ECONOMY's peak current is the move's own draw alone (as
 *     when the battery is charging: the gate counts only discharge);
 *   - `temperature` NaN: left out;
 *   - `percentage` NaN: the state of charge is `charge / capacity` when both are measured; when neither way gives it
 *     the state of charge is unknown and the message is skipped (`non-finite`): the battery source goes stale and
 *     ECONOMY fails closed, since the reserve cannot be judged without it.
 * `percentage` is a fraction, 0..1 ("Charge percentage on 0 to 1 range"). A driver that publishes 0–100 has its
 * state of charge read from `charge / capacity` when both are measured, and is refused (`malformed`) otherwise,
 * not rescaled: a value such a driver writes below 1 (0.5 %) cannot be told from a fraction (50 %), so rescaling
 * would read a nearly empty battery as half full exactly where the reserve matters.
 */
import { MappingSkip } from './mapping-skip.js';
import { type RosRecord, anyNumber, finiteNumber } from './ros-fields.js';

/** `charge / capacity` when both are measured (the message's other way to the state of charge), else undefined. */
function chargeFraction(msg: RosRecord, t: string): number | undefined {
  const charge = anyNumber(msg, 'charge', t);
  const capacity = anyNumber(msg, 'capacity', t);
  return Number.isFinite(charge) && Number.isFinite(capacity) && capacity > 0 && charge >= 0
    ? Math.min(1, charge / capacity)
    : undefined;
}

function stateOfCharge(msg: RosRecord, t: string): number {
  const percentage = anyNumber(msg, 'percentage', t);
  if (percentage >= 0 && percentage <= 1) return percentage;
  const fromCharge = chargeFraction(msg, t);
  if (fromCharge !== undefined) return fromCharge;
  if (Number.isNaN(percentage)) {
    throw new MappingSkip(
      'non-finite',
      `${t}.percentage is NaN (unmeasured) and charge / capacity cannot replace it: the state of charge is unknown, so the battery reserve cannot be judged`,
    );
  }
  const percent = percentage > 1 && percentage <= 100;
  throw new MappingSkip(
    'malformed',
    `${t}.percentage ${percentage} is outside 0..1 (sensor_msgs/BatteryState: "Charge percentage on 0 to 1 range") and charge / capacity cannot replace it${percent ? '; the driver publishes percent (0–100): make it publish a fraction (percent / 100). Not rescaled here: its values below 1 % could not be told from fractions' : ''}`,
  );
}

export function batteryBody(msg: RosRecord, t: string) {
  const voltageV = finiteNumber(msg, 'voltage', t);
  // sensor_msgs/BatteryState: current is negative while discharging; the frame counts discharge positive.
  const current = anyNumber(msg, 'current', t);
  if (current === Number.POSITIVE_INFINITY || current === Number.NEGATIVE_INFINITY) {
    throw new MappingSkip('non-finite', `${t}.current: non-finite value ${current}`);
  }
  // NaN is unmeasured: no present draw is known (see above).
  const currentA = Number.isNaN(current) || current === 0 ? 0 : -current;
  const temperatureC = anyNumber(msg, 'temperature', t);
  return {
    kind: 'battery' as const,
    voltageV,
    currentA,
    stateOfCharge: stateOfCharge(msg, t),
    ...(Number.isFinite(temperatureC) ? { temperatureC } : {}),
  };
}
