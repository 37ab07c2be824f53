/** `pentagate firmware sign`: a vendor-signed firmware manifest (DSSE) for the PROVENANCE gate. */
import { createHash } from 'node:crypto';
import { createEd25519Signer, dsseSignStatement } from '@pentagate/crypto';
import {
  type Command,
  ExitCode,
  type FirmwareManifest,
  FirmwareManifestSchema,
  PAYLOAD_TYPES,
  requireOption,
  UsageError,
  validate,
} from '@pentagate/protocol';
import {
  optionalString,
  parseSha256Hex,
  readInputFile,
  readSigningKeyFile,
  stringList,
  writeNewFile,
} from './cli-values.js';

export const firmwareSignCommand: Command = {
  path: ['firmware', 'sign'],
  summary: 'Sign a firmware manifest with a vendor key (DSSE) for the edge PROVENANCE gate',
  usage: '--key VENDOR_KEY (--image FILE | --sha256 HEX) --vendor NAME --model NAME --version V --out FILE',
  description: [
    'Writes a DSSE envelope (payload type application/vnd.pentagate.firmware+json) holding',
    '{ v, vendor, model, firmwareVersion, imageSha256, issuedAt, robotIds? }, signed with the vendor Ed25519',
    'key. The edge accepts a controller whose reported firmware hash matches a manifest signed by a key of',
    'role "vendor" in its trust file. --image hashes the file; --sha256 takes the digest directly.',
    '',
    'Exit codes: 0 written; 2 bad usage, unreadable key or image, or FILE exists.',
    '',
    'Example: pentagate firmware sign --key vendor.pem --image ur-5.15.0.bin --vendor "Universal Robots" \\',
    '           --model UR5e --version 5.15.0 --out ur-5.15.0.manifest.json',
  ].join('\n'),
  options: {
    key: { type: 'string', description: 'Vendor Ed25519 key file (PEM or JWK)', valueName: 'FILE' },
    image: { type: 'string', description: 'Firmware image to hash', valueName: 'FILE' },
    sha256: { type: 'string', description: 'SHA-256 of the image, 64 hex characters', valueName: 'HEX' },
    vendor: { type: 'string', description: 'Vendor name', valueName: 'NAME' },
    model: { type: 'string', description: 'Robot or controller model', valueName: 'NAME' },
    version: { type: 'string', description: 'Firmware version', valueName: 'V' },
    'robot-id': {
      type: 'string',
      multiple: true,
      description: 'Limit the manifest to this robot (repeatable)',
      valueName: 'ID',
    },
    out: {
      type: 'string',
      short: 'o',
      description: 'The manifest file to write (must not exist)',
      valueName: 'FILE',
    },
  },
  async run(args, io) {
    const image = optionalString(args, 'image');
    const sha256 = optionalString(args, 'sha256');
    if ((image === undefined) === (sha256 === undefined))
      throw new UsageError('expected exactly one of --image or --sha256');
    const out = requireOption(args, 'out');
    const key = await readSigningKeyFile(requireOption(args, 'key'), "vendor's signing key");
    const imageSha256 =
      sha256 !== undefined
        ? parseSha256Hex(sha256, 'sha256')
        : createHash('sha256')
            .update(await readInputFile(image as string, 'image', Number.MAX_SAFE_INTEGER))
            .digest('hex');
    const robotIds = stringList(args, 'robot-id');
    const manifest: FirmwareManifest = validate(
      FirmwareManifestSchema,
      {
        v: 1,
        vendor: requireOption(args, 'vendor'),
        model: requireOption(args, 'model'),
        firmwareVersion: requireOption(args, 'version'),
        imageSha256,
        issuedAt: Date.now(),
        ...(robotIds.length > 0 ? { robotIds } : {}),
      },
      'firmware manifest',
    );
    const envelope = dsseSignStatement(PAYLOAD_TYPES.firmware, manifest, createEd25519Signer(key.seed));
    await writeNewFile(out, `${JSON.stringify(envelope, null, 2)}\n`);
    io.out(
      `wrote firmware manifest for ${manifest.model} ${manifest.firmwareVersion} (sha256 ${imageSha256}) signed by ${key.kid} to ${out}`,
    );
    return ExitCode.ok;
  },
};
