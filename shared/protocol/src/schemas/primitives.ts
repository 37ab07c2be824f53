/**
 * Building blocks shared by every wire schema: identifiers, digests, encodings, timestamps and bounded
 * numbers. Every string has a length bound and every number explicit bounds, so a schema-valid value is
 * also a value the signer, the verifier and the database can hold.
 *
 * Non-finite numbers: TypeBox 0.34 refuses NaN and ±Infinity for `Type.Number()` under its default
 * policy (`TypeSystemPolicy.AllowNaN = false`, compiled as `Number.isFinite(value)`). We do not rely on
 * that policy alone: every number here also carries a `minimum` and `maximum`, and a comparison with NaN
 * is false, so NaN and ±Infinity stay refused even if some caller switches the policy on. JSON text
 * cannot carry them at all; JavaScript callers can, which is why the guard matters.
 */
import { type Static, type TString, Type } from '@sinclair/typebox';

/** Longest identifier accepted anywhere on the wire (robot, agent, tenant, intent, decision ids). */
export const MAX_ID_LENGTH = 128;
/** Longest free-text field (reasons, remediation, comments). */
export const MAX_TEXT_LENGTH = 2048;

/**
 * An identifier chosen by a system: letters, digits and `._:@-`, starting with a letter or digit, at most
 * 128 characters. No spaces, slashes or control characters, so ids are safe in URLs, log lines and file names.
 */
export const IdentifierSchema = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:@-]*$',
});
export type Identifier = Static<typeof IdentifierSchema>;

/**
 * A robot id. Stricter than an identifier (no `:` or `@`, at most 64 characters) because it is a topic
 * level in `pentagate/v1/<robotId>/cmd`: MQTT wildcards `+` and `#` and the separator `/` must never
 * appear in it, or one robot could subscribe to another's commands (MQTT 3.1.1 §4.7.1).
 */
export const RobotIdSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});
export type RobotId = Static<typeof RobotIdSchema>;

/**
 * A key id: 16 lower-case hex characters, the first 8 bytes of a SHA-256 over the key (see
 * `hmacKeyId` / `ed25519KeyId` in @pentagate/crypto).
 */
export const KeyIdSchema = Type.String({ pattern: '^[0-9a-f]{16}$' });
export type KeyId = Static<typeof KeyIdSchema>;

/** A human-readable name (vendor, model, lab, origin): printable, no control characters, 1..128 chars. */
export const NameSchema = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  // at least one character that is not white space: a blank name names nothing (and an agent named " "
  // would get a lobe name made of its version alone)
  pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$',
});

/**
 * How a caller names the agent it speaks for (kernel `context.agentId`, self-correct `action.agent_id`): the
 * specification types it as a plain string (§2.1, §2.5), so any printable name is taken, as registration's
 * `agent_name` is — `acme/billing`, `Billing Agent`, `Zoë` — as well as the id registration returned. The
 * cloud stores the agent under an identifier made from it (cloud/src/kernel/agent-reference.ts).
 */
export const AgentReferenceSchema = NameSchema;

/** Free text on one or more lines (reasons, messages): no control characters but tab and newline. */
export function textSchema(maxLength: number = MAX_TEXT_LENGTH): TString {
  return Type.String({ minLength: 1, maxLength, pattern: '^[^\\u0000-\\u0008\\u000b-\\u001f\\u007f]+$' });
}

/** A SHA-256 digest as 64 lower-case hex characters (the one digest form on the wire). */
export const Sha256HexSchema = Type.String({ pattern: '^[0-9a-f]{64}$' });
export type Sha256Hex = Static<typeof Sha256HexSchema>;

// Canonical base64 (RFC 4648 §3.5): the unused low bits of the last symbol are zero, so each byte
// string has exactly one text form and a signed value cannot be re-encoded into a second valid form.
const B64 = 'A-Za-z0-9+/';
const B64URL = 'A-Za-z0-9_-';
const LAST_OF_2 = 'AQgw'; // last symbol when 4 bits are unused (1 trailing byte)
const LAST_OF_3 = 'AEIMQUYcgkosw048'; // last symbol when 2 bits are unused (2 trailing bytes)

/** Standard, padded, canonical base64 of any length up to `maxChars` characters. */
export function base64Schema(maxChars: number, minChars = 4): TString {
  return Type.String({
    minLength: minChars,
    maxLength: maxChars,
    pattern: `^(?:[${B64}]{4})*(?:[${B64}][${LAST_OF_2}]==|[${B64}]{2}[${LAST_OF_3}]=)?$`,
  });
}

/** Standard, padded, canonical base64 of exactly `bytes` bytes. */
export function base64OfBytesSchema(bytes: number): TString {
  const full = Math.floor(bytes / 3) * 4;
  const tail = bytes % 3;
  const body =
    tail === 0
      ? `[${B64}]{${full}}`
      : tail === 1
        ? `[${B64}]{${full + 1}}[${LAST_OF_2}]==`
        : `[${B64}]{${full + 2}}[${LAST_OF_3}]=`;
  return Type.String({ pattern: `^${body}$` });
}

/** Unpadded, canonical base64url (RFC 4648 §5) of exactly `bytes` bytes. */
export function base64UrlOfBytesSchema(bytes: number): TString {
  const full = Math.floor(bytes / 3) * 4;
  const tail = bytes % 3;
  const body =
    tail === 0
      ? `[${B64URL}]{${full}}`
      : tail === 1
        ? `[${B64URL}]{${full + 1}}[${LAST_OF_2}]`
        : `[${B64URL}]{${full + 2}}[${LAST_OF_3}]`;
  return Type.String({ pattern: `^${body}$` });
}

/** A 32-byte hash (Merkle node, checkpoint root) in standard base64: 44 characters. */
export const Hash32Base64Schema = base64OfBytesSchema(32);

/**
 * The latest instant a JavaScript Date holds, 8.64e15 ms after the epoch (ECMAScript time values, about
 * the year 275760). A later "time" is no time: `new Date(ms).toISOString()` throws on it.
 */
export const MAX_UNIX_MS = 8_640_000_000_000_000;

/**
 * A point in time as integer Unix milliseconds (the default unit on the wire), up to the latest a Date can
 * hold (below 2^53 - 1, so it also survives JSON and JCS exactly): every reader turns these into dates for
 * its messages, records and audit entries, and a value past it made those fail as server faults.
 */
export const UnixMsSchema = Type.Integer({ minimum: 0, maximum: MAX_UNIX_MS });
export type UnixMs = Static<typeof UnixMsSchema>;

/** A count or position (sizes, indexes, epochs): integer 0..2^53 - 1. */
export const CountSchema = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/**
 * An RFC 3339 timestamp (`2025-06-01T12:00:00.000Z`, or with a `+02:00` offset). The pattern checks the
 * ranges of each field; it does not know month lengths (a `02-31` passes the schema and fails `Date.parse`).
 */
export const IsoTimestampSchema = Type.String({
  maxLength: 40,
  pattern:
    '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)' +
    '(?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$',
});
export type IsoTimestamp = Static<typeof IsoTimestampSchema>;

/**
 * A JSON object whose members the producer chooses (payloads, tier results, calibration parameters).
 * Its contents are not checked here; signed bytes are JCS, which refuses anything JSON cannot carry.
 */
export const JsonObjectSchema = Type.Record(Type.String(), Type.Unknown());
export type JsonObject = Static<typeof JsonObjectSchema>;
