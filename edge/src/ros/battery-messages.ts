/** sensor_msgs/BatteryState → the body of a battery frame. Throws MappingSkip or FieldProblem. */
import { MappingSkip } from './mapping-skip.js';
import { type RosRecord, anyNumber, finiteNumber } from './ros-fields.js';

export function batteryBody(msg: RosRecord, t: string) {
  const voltageV = finiteNumber(msg, 'voltage', t);
  // sensor_msgs/BatteryState: current is negative while discharging; the frame counts discharge positive.
  const currentA = -finiteNumber(msg, 'current', t);
  let stateOfCharge = anyNumber(msg, 'percentage', t);
  if (!Number.isFinite(stateOfCharge)) {
    // "If the percentage is not measured, set to NaN": fall back to charge / capacity when both are known.
    const charge = anyNumber(msg, 'charge', t);
    const capacity = anyNumber(msg, 'capacity', t);
    if (!(Number.isFinite(charge) && Number.isFinite(capacity) && capacity > 0)) {
      throw new MappingSkip('non-finite', `${t}.percentage is NaN and charge/capacity cannot replace it`);
    }
    stateOfCharge = charge / capacity;
  }
  const temperatureC = anyNumber(msg, 'temperature', t);
  return {
    kind: 'battery' as const,
    voltageV,
    currentA: currentA === 0 ? 0 : currentA,
    stateOfCharge,
    ...(Number.isFinite(temperatureC) ? { temperatureC } : {}),
  };
}
