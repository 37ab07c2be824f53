/**
 * The edge node's ROS 2 parameters, declared like any ROS node's so `ros2 param list/get` shows how the gate runs
 * and a launch file can set them (`--ros-args -p check_stamps:=false`). A launch override wins over the value the
 * edge was started with; the value read back is the one used.
 *
 * - `robot_id` (string, read-only): the robot this node gates.
 * - `check_stamps` (bool): check header stamps against the edge clock (off for bags played with use_sim_time).
 * - `max_future_skew_ms` (integer): how far in the future a stamp may be before the message is skipped.
 */
import { TransportError } from '../transport/transport-error.js';
import type { Rclnodejs, RclNode } from './rclnodejs-surface.js';

export interface EdgeNodeParameters {
  robotId: string;
  checkStamps: boolean;
  maxFutureSkewMs: number;
}

type Kind = 'PARAMETER_BOOL' | 'PARAMETER_INTEGER' | 'PARAMETER_STRING';

const PARAMETERS: readonly {
  key: keyof EdgeNodeParameters;
  name: string;
  kind: Kind;
  description: string;
  readOnly: boolean;
}[] = [
  {
    key: 'robotId',
    name: 'robot_id',
    kind: 'PARAMETER_STRING',
    description: 'robot gated by this node',
    readOnly: true,
  },
  {
    key: 'checkStamps',
    name: 'check_stamps',
    kind: 'PARAMETER_BOOL',
    description: 'skip messages whose header stamp is stale or in the future',
    readOnly: true,
  },
  {
    key: 'maxFutureSkewMs',
    name: 'max_future_skew_ms',
    kind: 'PARAMETER_INTEGER',
    description: 'largest accepted stamp lead over the edge clock, ms',
    readOnly: true,
  },
];

function checked(key: keyof EdgeNodeParameters, name: string, value: unknown): string | boolean | number {
  const ok =
    key === 'robotId'
      ? typeof value === 'string'
      : key === 'checkStamps'
        ? typeof value === 'boolean'
        : (typeof value === 'number' || typeof value === 'bigint') && Number(value) >= 0;
  if (!ok) {
    throw new TransportError(
      'ROS2_BINDING_INVALID',
      `ROS 2 parameter ${name}: got ${JSON.stringify(String(value))}, expected ${key === 'robotId' ? 'a string' : key === 'checkStamps' ? 'true or false' : 'a non-negative integer'}`,
    );
  }
  return key === 'maxFutureSkewMs' ? Number(value) : (value as string | boolean);
}

/**
 * Declares the parameters with `defaults` and returns the values in force (launch overrides applied). A node
 * or rclnodejs without parameter support keeps the defaults.
 */
export function declareEdgeParameters(
  rcl: Rclnodejs,
  node: RclNode,
  defaults: EdgeNodeParameters,
): EdgeNodeParameters {
  const { Parameter, ParameterDescriptor, ParameterType } = rcl;
  if (!Parameter || !ParameterType || typeof node.declareParameter !== 'function') return { ...defaults };
  const values: EdgeNodeParameters = { ...defaults };
  for (const p of PARAMETERS) {
    const type = ParameterType[p.kind];
    const declared = node.declareParameter(
      new Parameter(p.name, type, defaults[p.key]),
      ParameterDescriptor
        ? new ParameterDescriptor(p.name, type, p.description, p.readOnly)
        : { name: p.name, type, description: p.description, readOnly: p.readOnly },
    );
    (values as unknown as Record<string, unknown>)[p.key] = checked(p.key, p.name, declared.value);
  }
  return values;
}
