/**
 * Redirects that the project's HTTP clients of the cloud do not follow (the edge's fleet link and the
 * operator's `consent pending|grant`, as GovClient). fetch follows a 3xx by default: it sends the request
 * again — a 307/308 with its body: audit records, a consent token — to an address the caller never
 * configured, drops the Authorization header when that address is another origin, and hands back whatever
 * answers there as the cloud's answer. For an edge that answer is operator keys it trusts for consent,
 * consent tokens, and acknowledgements after which its outbox treats records as shipped.
 */
import { oneLine } from './user-error.js';

/** Spread into fetch's options: a 3xx comes back as the answer, unfollowed. */
export const NO_REDIRECT = { redirect: 'manual' } as const;

/** What a redirect answer says, as one line; undefined for any other status. */
export function redirectRefusal(answer: {
  status: number;
  headers: { get(name: string): string | null };
}): string | undefined {
  if (answer.status < 300 || answer.status >= 400) return undefined;
  const location = answer.headers.get('location');
  const target = location ? ` to ${JSON.stringify(oneLine(location).slice(0, 200))}` : '';
  return `the cloud answered HTTP ${answer.status}, a redirect${target}, which is not followed: give the address that answers`;
}
