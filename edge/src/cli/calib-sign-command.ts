/** `pentagate calib sign`: a calibration-lab-signed sensor calibration certificate (DSSE). */
import { createEd25519Signer, dsseSignStatement } from '@pentagate/crypto';
import {
  type CalibrationCertificate,
  CalibrationCertificateSchema,
  type Command,
  ExitCode,
  PAYLOAD_TYPES,
  parseTimeOption,
  requireOption,
  UsageError,
  validate,
} from '@pentagate/protocol';
import { optionalString, readSigningKeyFile, writeNewFile } from './cli-values.js';

export const calibSignCommand: Command = {
  path: ['calib', 'sign'],
  summary: 'Sign a sensor calibration certificate with a calibration-lab key (DSSE)',
  usage: '--key LAB_KEY --lab NAME --robot ID --sensor ID --calibration-id ID --expires ISO --out FILE',
  description: [
    'Writes a DSSE envelope (payload type application/vnd.pentagate.calibration+json) holding',
    '{ v, lab, robotId, sensorId, calibrationId, issuedAt, expiresAt }. The edge PROVENANCE gate wants one',
    'valid, unexpired certificate, signed by a key of role "calibration", for every sensor the robot profile',
    'marks calibrationRequired.',
    '',
    'Exit codes: 0 written; 2 bad usage, unreadable key, expiry not after issue, or FILE exists.',
    '',
    'Example: pentagate calib sign --key lab.pem --lab "Metrology Lab" --robot ur5e-01 --sensor lidar-front \\',
    '           --calibration-id CAL-2027-0042 --expires 2028-01-31T00:00:00Z --out lidar-front.cal.json',
  ].join('\n'),
  options: {
    key: { type: 'string', description: 'Calibration lab Ed25519 key file (PEM or JWK)', valueName: 'FILE' },
    lab: { type: 'string', description: 'Name of the calibration lab', valueName: 'NAME' },
    robot: { type: 'string', description: 'Robot id the sensor is mounted on', valueName: 'ID' },
    sensor: { type: 'string', description: 'Sensor id as named in the robot profile', valueName: 'ID' },
    'calibration-id': { type: 'string', description: 'The lab’s certificate number', valueName: 'ID' },
    issued: { type: 'string', description: 'Issue time (default: now)', valueName: 'ISO' },
    expires: { type: 'string', description: 'Expiry time, e.g. 2028-01-31T00:00:00Z', valueName: 'ISO' },
    out: {
      type: 'string',
      short: 'o',
      description: 'The certificate file to write (must not exist)',
      valueName: 'FILE',
    },
  },
  async run(args, io) {
    const out = requireOption(args, 'out');
    const issued = optionalString(args, 'issued');
    const issuedAt = issued === undefined ? Date.now() : parseTimeOption(issued, 'issued');
    const expiresAt = parseTimeOption(requireOption(args, 'expires'), 'expires');
    if (expiresAt <= issuedAt) {
      throw new UsageError(
        `--expires: expected a time after ${new Date(issuedAt).toISOString()}, got ${new Date(expiresAt).toISOString()}`,
      );
    }
    const key = await readSigningKeyFile(requireOption(args, 'key'), "calibration lab's signing key");
    const certificate: CalibrationCertificate = validate(
      CalibrationCertificateSchema,
      {
        v: 1,
        lab: requireOption(args, 'lab'),
        robotId: requireOption(args, 'robot'),
        sensorId: requireOption(args, 'sensor'),
        calibrationId: requireOption(args, 'calibration-id'),
        issuedAt,
        expiresAt,
      },
      'calibration certificate',
    );
    const envelope = dsseSignStatement(PAYLOAD_TYPES.calibration, certificate, createEd25519Signer(key.seed));
    await writeNewFile(out, `${JSON.stringify(envelope, null, 2)}\n`);
    io.out(
      `wrote calibration certificate ${certificate.calibrationId} for ${certificate.robotId}/${certificate.sensorId} ` +
        `(expires ${new Date(expiresAt).toISOString()}) signed by ${key.kid} to ${out}`,
    );
    return ExitCode.ok;
  },
};
