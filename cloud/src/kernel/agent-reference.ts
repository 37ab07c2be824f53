/**
 * The stored agent a caller's reference names (kernel `context.agentId`, self-correct `action.agent_id`).
 * The specification types the reference as a plain string (§2.1, §2.5), while an agent record's id is an
 * identifier (`[A-Za-z0-9][A-Za-z0-9._:@-]*`, ≤ 128): it is signed into every decision statement, filters
 * the audit log and keys the budget rows. A reference that is already an identifier is the id itself — a
 * registered agent's `agent_id`, or a name written in that alphabet, as before. Any other name is stored under
 * an id made from it: its identifier characters, then `:` and 16 hex digits of the SHA-256 of the exact
 * name, so the same name always reaches the same record and names that differ only in the dropped characters
 * (a space, a look-alike letter) reach different ones. The agent's name stays the reference as written, so
 * it joins the account of an agent registered under that name, and a key bound to a name is checked against it.
 */
import { sha256Hex } from '@pentagate/crypto';
import { MAX_ID_LENGTH } from '@pentagate/protocol';

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
const DIGEST_HEX = 16;

export function agentRecordId(reference: string): string {
  if (IDENTIFIER.test(reference) && reference.length <= MAX_ID_LENGTH) return reference;
  const digest = sha256Hex(reference).slice(0, DIGEST_HEX);
  const readable = reference
    .replace(/[^A-Za-z0-9._@-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, MAX_ID_LENGTH - DIGEST_HEX - 1);
  return readable === '' ? `agent:${digest}` : `${readable}:${digest}`;
}
