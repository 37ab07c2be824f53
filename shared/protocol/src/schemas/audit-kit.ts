/**
 * The manifest of an offline audit kit, a directory holding `manifest.json`, `checkpoint.note` (signed
 * note of the whole log), `entries.jsonl` (one JCS audit entry per line, in index order) and `trust.json`
 * (a TrustDocument). `files` maps each other file's name to the SHA-256 of its bytes.
 */
import { type Static, Type } from '@sinclair/typebox';
import { LogOriginSchema } from './checkpoint.js';
import { CountSchema, IsoTimestampSchema, Sha256HexSchema } from './primitives.js';

/**
 * A plain file name inside the kit directory: no `/`, `\` or leading dot, so a manifest can never point a
 * verifier at `../` or an absolute path.
 */
export const KIT_FILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';

export const AuditKitManifestSchema = Type.Object(
  {
    v: Type.Literal(1),
    origin: LogOriginSchema,
    treeSize: CountSchema,
    createdAt: IsoTimestampSchema,
    files: Type.Record(Type.String({ pattern: KIT_FILE_NAME_PATTERN }), Sha256HexSchema, {
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 64,
    }),
  },
  { additionalProperties: false },
);
export type AuditKitManifest = Static<typeof AuditKitManifestSchema>;
