/**
 * The key belongs in the Authorization header (specification §5.1), but clients put keys and tokens in URLs.
 * What the server repeats of a URL a client sent — a 404's message, the refusal record of it, the request log
 * line — without anything in it that looks like a secret. API keys of this server (`pgk_…`, also
 * percent-encoded) are masked as `pgk_[redacted]` (tenants/api-key.ts). Other credentials a client may put in
 * a URL — a key without the prefix, another service's key, a bearer token, a JWT, a signed link's
 * signature — have no prefix to recognise them by, so any long high-entropy run is masked as `[redacted]`
 * too (last review, item 4): 24 or more token characters (base64 and base64url, `.`, `~`, a `%XX` counted as
 * one) that mix letters and digits, or 40 or more of any kind. A path of words (`/api/v1/agentgate/propose`)
 * stays readable; an id of this server (`prp_01J…`) quoted in a 404 may be masked as well, which costs its
 * reader little and never shows a secret.
 */
import { withoutApiKeys } from '../tenants/api-key.js';

const TOKEN_UNIT = '(?:[A-Za-z0-9_~+.-]|%[0-9A-Fa-f]{2})';
const TOKEN_RUN = new RegExp(`${TOKEN_UNIT}{24,}`, 'g');
/** A `%XX` counts as one character of the run: decoded, the run is as long as its characters. */
const PERCENT_BYTE = /%[0-9A-Fa-f]{2}/g;

export const REDACTED = '[redacted]';

/** Whether a run of token characters could be a secret: long and mixed, or very long. */
function looksSecret(run: string): boolean {
  const plain = run.replace(PERCENT_BYTE, '%');
  if (plain.length >= 40) return true;
  return /[0-9]/.test(plain) && /[A-Za-z]/.test(plain);
}

/** `text` (a path, a URL with its query, a message quoting them) with every key and token-like run masked. */
export function withoutUrlSecrets(text: string): string {
  return withoutApiKeys(text).replace(TOKEN_RUN, (run) => (looksSecret(run) ? REDACTED : run));
}
