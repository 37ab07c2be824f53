/**
 * The injection classifier's weights: a logistic-regression model over hashed features, stored as one
 * int8 per table slot with a single scale (symmetric linear quantisation), so a 2^18-slot table is
 * 256 KiB on disk. Loaded once, de-quantised to float32 for scoring.
 *
 * File layout (little-endian): "PGIC" · u8 format · u8 featureVersion · u8 bits · u8 0 · f32 scale ·
 * f32 bias · f32 threshold · u32 windowChars · u32 strideChars · int8[2^bits] weights.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PentagateError } from '@pentagate/protocol';
import { FEATURE_VERSION } from './features.js';

const MAGIC = 'PGIC';
const FORMAT = 1;
const HEADER_BYTES = 28;

export interface InjectionModel {
  bits: number;
  weights: Float32Array;
  /**
   * The int8 weights as stored, with `scale` (weight = quantised × scale). The scorer reads these when
   * present: 256 KiB stay in a core's L2 cache where 1 MiB of float32 would not, and each feature is
   * one random read into the table.
   */
  quantised?: { table: Int8Array; scale: number };
  bias: number;
  /** The probability at or above which a field is refused unless the policy sets its own. */
  threshold: number;
  /** Characters per scored window and the step between windows (see score.ts). */
  windowChars: number;
  strideChars: number;
}

/** The weights shipped with the package (`cloud/models/`, the same path from `src/` and `dist/`). */
export const BUNDLED_MODEL_PATH = fileURLToPath(
  new URL('../../../../../models/injection-classifier.bin', import.meta.url),
);

export function encodeModel(model: InjectionModel): Buffer {
  const size = 1 << model.bits;
  if (model.weights.length !== size) {
    throw new RangeError(`expected ${size} weights for ${model.bits} bits, got ${model.weights.length}`);
  }
  let maxAbs = 0;
  for (const w of model.weights) {
    // a diverged training run: refuse to write weights the loader would refuse to read
    if (!Number.isFinite(w)) throw new RangeError(`a weight is ${w}: the model did not converge`);
    maxAbs = Math.max(maxAbs, Math.abs(w));
  }
  const scale = maxAbs > 0 ? maxAbs / 127 : 1;
  const out = Buffer.alloc(HEADER_BYTES + size);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt8(FORMAT, 4);
  out.writeUInt8(FEATURE_VERSION, 5);
  out.writeUInt8(model.bits, 6);
  out.writeFloatLE(scale, 8);
  out.writeFloatLE(model.bias, 12);
  out.writeFloatLE(model.threshold, 16);
  out.writeUInt32LE(model.windowChars, 20);
  out.writeUInt32LE(model.strideChars, 24);
  for (let i = 0; i < size; i++) out.writeInt8(Math.round(model.weights[i]! / scale), HEADER_BYTES + i);
  return out;
}

export function decodeModel(bytes: Uint8Array, source: string): InjectionModel {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 4) !== MAGIC) {
    throw new TypeError(`${source}: not an injection model (expected magic ${MAGIC})`);
  }
  const format = buf.readUInt8(4);
  const featureVersion = buf.readUInt8(5);
  const bits = buf.readUInt8(6);
  if (format !== FORMAT || featureVersion !== FEATURE_VERSION) {
    throw new TypeError(
      `${source}: expected format ${FORMAT} / feature version ${FEATURE_VERSION}, got ${format} / ${featureVersion}`,
    );
  }
  if (bits < 10 || bits > 24 || buf.length !== HEADER_BYTES + (1 << bits)) {
    throw new TypeError(`${source}: expected ${HEADER_BYTES} + 2^${bits} bytes, got ${buf.length}`);
  }
  const scale = buf.readFloatLE(8);
  const bias = buf.readFloatLE(12);
  const rawThreshold = buf.readFloatLE(16);
  const windowChars = buf.readUInt32LE(20);
  const strideChars = buf.readUInt32LE(24);
  // A NaN scale, bias or threshold would make every score NaN, and `NaN >= threshold` is false: the screen
  // would pass everything. Fail closed: such a file is corrupt, and the gate must not start with it.
  if (!(Number.isFinite(scale) && scale > 0) || !Number.isFinite(bias)) {
    throw new TypeError(`${source}: corrupt header: scale ${scale} (must be finite and > 0), bias ${bias}`);
  }
  if (!(rawThreshold > 0 && rawThreshold < 1)) {
    throw new TypeError(`${source}: corrupt header: threshold ${rawThreshold} is not between 0 and 1`);
  }
  if (windowChars < 1 || strideChars < 1 || strideChars > windowChars) {
    throw new TypeError(
      `${source}: corrupt header: windows of ${windowChars} characters every ${strideChars} (need 1 ≤ stride ≤ window)`,
    );
  }
  const table = new Int8Array(1 << bits);
  table.set(new Int8Array(buf.buffer, buf.byteOffset + HEADER_BYTES, 1 << bits));
  const weights = new Float32Array(1 << bits);
  for (let i = 0; i < weights.length; i++) weights[i] = table[i]! * scale;
  return {
    bits,
    weights,
    quantised: { table, scale },
    bias,
    // Stored as float32; rounded back to the decimal the trainer chose.
    threshold: Math.round(rawThreshold * 1e6) / 1e6,
    windowChars,
    strideChars,
  };
}

/**
 * Reads and decodes a weights file. One that cannot be read or decoded is a PentagateError saying what to do
 * (a command prints it as one line, not as an internal error with a stack).
 */
export function readModelFile(path: string): InjectionModel {
  const remedy =
    'the install is incomplete; install the package again, or rebuild the weights with `npm run train:injection`';
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new PentagateError(
      'INJECTION_MODEL_UNREADABLE',
      `the injection classifier's weights ${path} cannot be read (${why}): ${remedy}`,
    );
  }
  try {
    return decodeModel(bytes, path);
  } catch (err) {
    throw new PentagateError('INJECTION_MODEL_UNREADABLE', `${(err as Error).message}: ${remedy}`);
  }
}

let bundled: InjectionModel | undefined;

/**
 * The bundled model, read once. A missing or corrupt file throws: the gate must not start blind, so the cloud
 * reads it at start (buildApp) and refuses to start, rather than refusing every propose after it.
 */
export function bundledModel(): InjectionModel {
  bundled ??= readModelFile(BUNDLED_MODEL_PATH);
  return bundled;
}
