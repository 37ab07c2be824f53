/**
 * The parsed body of a C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): origin, tree size and root hash.
 * On the wire a checkpoint travels as signed-note text; this is its JSON form for reports and APIs.
 */
import { type Static, Type } from '@sinclair/typebox';
import { CountSchema, Hash32Base64Schema } from './primitives.js';

/**
 * A log origin: non-empty, one line, no leading or trailing space; by convention a schema-less URL
 * (`pentagate.example/audit/tenant-a`).
 */
export const LogOriginSchema = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\s\\u0000-\\u001f\\u007f](?:[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f])?$',
});

export const CheckpointSchema = Type.Object(
  {
    origin: LogOriginSchema,
    /** Number of leaves in the tree. */
    size: CountSchema,
    /** RFC 6962 root hash (SHA-256), standard base64: 44 characters. */
    rootHash: Hash32Base64Schema,
  },
  { additionalProperties: false },
);
export type Checkpoint = Static<typeof CheckpointSchema>;
