/**
 * Defensive readers for decoded ROS messages. A message comes from rclnodejs (plain objects, typed arrays when
 * enabled) or from a recording decoded with the recording's own schema, which may not be the schema we expect:
 * every field is checked for presence and type, and a mismatch is a `FieldProblem`, never an exception.
 */

export class FieldProblem extends Error {
  constructor(
    readonly reason: 'missing-field' | 'wrong-type' | 'non-finite',
    message: string,
  ) {
    super(message);
  }
}

export type RosRecord = Readonly<Record<string, unknown>>;

export function asRecord(value: unknown, what: string): RosRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new FieldProblem(
      value === undefined ? 'missing-field' : 'wrong-type',
      `${what}: expected a message, got ${typeof value}`,
    );
  }
  return value as RosRecord;
}

export function field(record: RosRecord, name: string, what: string): unknown {
  if (!(name in record)) throw new FieldProblem('missing-field', `${what}.${name}: missing`);
  return record[name];
}

/** A finite number (float32/float64/int fields); NaN and ±Inf are `non-finite`. */
export function finiteNumber(record: RosRecord, name: string, what: string): number {
  const v = field(record, name, what);
  if (typeof v !== 'number')
    throw new FieldProblem('wrong-type', `${what}.${name}: expected a number, got ${typeof v}`);
  if (!Number.isFinite(v)) throw new FieldProblem('non-finite', `${what}.${name}: non-finite value ${v}`);
  return v;
}

/** A number that may be NaN or ±Inf (REP 117 uses them as signals). */
export function anyNumber(record: RosRecord, name: string, what: string): number {
  const v = field(record, name, what);
  if (typeof v !== 'number')
    throw new FieldProblem('wrong-type', `${what}.${name}: expected a number, got ${typeof v}`);
  return v;
}

export function text(record: RosRecord, name: string, what: string): string {
  const v = field(record, name, what);
  if (typeof v !== 'string')
    throw new FieldProblem('wrong-type', `${what}.${name}: expected a string, got ${typeof v}`);
  return v;
}

/** A stamped message's `header.frame_id`, without the leading `/` of ROS 1 habit. */
export function headerFrameId(msg: RosRecord, type: string): string {
  const header = asRecord(field(msg, 'header', type), `${type}.header`);
  return text(header, 'frame_id', `${type}.header`).replace(/^\//, '');
}

/** A float array as number[] (accepts number[] and Float32Array/Float64Array); values may be non-finite. */
export function numberArray(record: RosRecord, name: string, what: string): number[] {
  const v = field(record, name, what);
  if (v instanceof Float64Array || v instanceof Float32Array) return Array.from(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  throw new FieldProblem('wrong-type', `${what}.${name}: expected an array of numbers`);
}

/** Like numberArray, but every value must be finite. */
export function finiteArray(record: RosRecord, name: string, what: string): number[] {
  const xs = numberArray(record, name, what);
  const i = xs.findIndex((x) => !Number.isFinite(x));
  if (i >= 0) throw new FieldProblem('non-finite', `${what}.${name}[${i}]: non-finite value ${xs[i]}`);
  return xs;
}

/** A uint8[] (Uint8Array from rclnodejs and the CDR reader, or a plain array of bytes) as a Uint8Array. */
export function byteArray(record: RosRecord, name: string, what: string): Uint8Array {
  const v = field(record, name, what);
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0 && x <= 255))
    return Uint8Array.from(v);
  throw new FieldProblem('wrong-type', `${what}.${name}: expected an array of bytes`);
}

/** A geometry_msgs/Vector3 or Point field as { x, y, z }, every component finite. */
export function finiteVector3(
  record: RosRecord,
  name: string,
  what: string,
): { x: number; y: number; z: number } {
  const w = `${what}.${name}`;
  const v = asRecord(field(record, name, what), w);
  return { x: finiteNumber(v, 'x', w), y: finiteNumber(v, 'y', w), z: finiteNumber(v, 'z', w) };
}

/** A geometry_msgs/Quaternion field as { x, y, z, w }, every component finite (its norm is the store's check). */
export function finiteQuaternion(
  record: RosRecord,
  name: string,
  what: string,
): { x: number; y: number; z: number; w: number } {
  const at = `${what}.${name}`;
  const q = asRecord(field(record, name, what), at);
  return {
    x: finiteNumber(q, 'x', at),
    y: finiteNumber(q, 'y', at),
    z: finiteNumber(q, 'z', at),
    w: finiteNumber(q, 'w', at),
  };
}

export function textArray(record: RosRecord, name: string, what: string): string[] {
  const v = field(record, name, what);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw new FieldProblem('wrong-type', `${what}.${name}: expected an array of strings`);
}

/** builtin_interfaces/Time or Duration → integer ms (floor; sub-ms precision is dropped). */
export function timeMs(record: RosRecord, name: string, what: string): number {
  const t = asRecord(field(record, name, what), `${what}.${name}`);
  const sec = finiteNumber(t, 'sec', `${what}.${name}`);
  const nanosec = finiteNumber(t, 'nanosec', `${what}.${name}`);
  if (!Number.isInteger(sec) || !Number.isInteger(nanosec) || nanosec < 0 || nanosec >= 1e9) {
    throw new FieldProblem(
      'wrong-type',
      `${what}.${name}: expected integer sec and nanosec < 1e9, got ${sec}, ${nanosec}`,
    );
  }
  return sec * 1000 + Math.floor(nanosec / 1e6);
}

/** Unix ms → builtin_interfaces/Time. */
export function msToTime(ms: number): { sec: number; nanosec: number } {
  const sec = Math.floor(ms / 1000);
  return { sec, nanosec: Math.round((ms - sec * 1000) * 1e6) };
}
