/**
 * `pentagate edge sensor-sign`: a telemetry frame signed with a sensor node's HMAC key, printed as JSON —
 * what a sensor node publishes on `pentagate/v1/<robotId>/telemetry/<source>` when the profile marks that
 * source `authenticated`. Sensor nodes written in TypeScript call `signTelemetryFrame` (@pentagate/crypto)
 * instead; this command is for shells, tests and checking another implementation's output.
 */
import { readHmacKeyFile, signTelemetryFrame } from '@pentagate/crypto';
import {
  type Command,
  ExitCode,
  requireOption,
  TelemetryFrameSchema,
  UsageError,
  validate,
} from '@pentagate/protocol';
import { optionalString, readJsonFile } from './cli-values.js';

function nonNegativeInteger(text: string, option: string): number {
  if (!/^\d{1,15}$/.test(text))
    throw new UsageError(`--${option}: expected a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

export const sensorSignCommand: Command = {
  path: ['edge', 'sensor-sign'],
  summary: 'Sign a telemetry frame with a sensor key (for sources the profile marks authenticated)',
  usage: '--key FILE --frame FILE [--seq N] [--stamp-now]',
  description: [
    'Reads a telemetry frame (JSON), optionally sets its seq and stampMs, and prints it with',
    '"mac": { "keyId", "hmacSha256" } = HMAC-SHA256(key, "pentagate-sensor-v1\\n" || JCS(frame without mac)).',
    'The key is the sensor node’s own HMAC key (pentagate keys generate --kind hmac); the profile names its',
    'key id as the source’s macKeyId and the edge is given the key file with --sensor-key.',
    '',
    'Exit codes: 0 printed; 2 bad usage, an unreadable key or an invalid frame.',
    '',
    'Example: pentagate edge sensor-sign --key lidar.key.jwk --frame proximity.json --seq 7 --stamp-now \\',
    '           | mosquitto_pub -t pentagate/v1/ur5e-01/telemetry/proximity-front -s',
  ].join('\n'),
  options: {
    key: { type: 'string', description: 'The sensor node’s HMAC key (JWK)', valueName: 'FILE' },
    frame: { type: 'string', description: 'The telemetry frame (JSON)', valueName: 'FILE' },
    seq: { type: 'string', description: 'Set the frame’s seq', valueName: 'N' },
    'stamp-now': { type: 'boolean', description: 'Set stampMs to the current time' },
  },
  async run(args, io) {
    const framePath = requireOption(args, 'frame');
    const raw = (await readJsonFile(framePath, 'frame')) as Record<string, unknown>;
    const seqText = optionalString(args, 'seq');
    const edited = {
      ...raw,
      ...(seqText !== undefined ? { seq: nonNegativeInteger(seqText, 'seq') } : {}),
      ...(args.options['stamp-now'] === true ? { stampMs: Date.now() } : {}),
    };
    const frame = validate(TelemetryFrameSchema, edited, `telemetry frame ${framePath}`);
    const { key } = await readHmacKeyFile(requireOption(args, 'key'));
    io.out(JSON.stringify(signTelemetryFrame(key, frame)));
    return ExitCode.ok;
  },
};
