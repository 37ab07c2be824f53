/**
 * On the propose route a 403 carries the verdict's refusal fields. The specification's answer to a tool call
 * that may not run is `approved: false` with `violations` (§2.4, §4 rule 3, §7), so a client written from it
 * reads `approved` and `violations`, not an error body. A 403 refusal made before any decision is committed (a
 * key of another scope, a key bound to another agent, a key at its cap of proposals waiting for an operator)
 * refuses the call too: its body is `approved: false`, a `reason`, and `violations` holding the code and
 * message, with the error body beside them (`error: { code, message }`, as on every route). It names no
 * decision and carries no token: none was made. So does a 409, the answer to a `tool_call.id` used again for
 * another call or repeated after its approval expired: the specification only calls the id "identifier of the
 * call, chosen by the caller" (§2.3), and a client written from it that reuses one must still read a refusal
 * in `approved`, not fail on a body without it (outside spec review). Routes opt in with
 * `config.verdictErrors`; the self-correcting route's counterpart is veto-brief-errors.ts.
 */
import type { ApiError, ErrorBody } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 403 and 409 errors of this route are answered as a refused verdict (plus the error body). */
    verdictErrors?: boolean;
  }
}

export interface RefusedVerdictError extends ErrorBody {
  approved: false;
  reason: string;
  violations: string[];
}

/** The statuses answered as a refused verdict on a route that opts in. */
export function isVerdictRefusal(status: number): boolean {
  return status === 403 || status === 409;
}

export function refusedVerdictOf(error: ApiError, body: ErrorBody): RefusedVerdictError {
  return {
    approved: false,
    // the body's message, as answered (masked: error-handler.ts)
    reason: `refused: ${body.error.message}`,
    violations: [`${error.code}: ${body.error.message}`],
    ...body,
  };
}
