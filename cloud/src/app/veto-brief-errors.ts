/**
 * On the self-correcting route every 403 carries the veto brief's fields. The specification gives that route
 * two answers, 200 cleared and 403 vetoed with `{ type: SERVICE_GOVERNANCE_VETO, summary, violations,
 * remediation }` (§2.5, §4 rules 4–5), so a client written from it reads any 403 as a brief. A 403 refusal
 * before any decision is committed (a key of another scope, a key bound to another agent, a key at its cap of
 * proposals waiting for an operator) is a refusal of the action too: its body is the brief, with the error
 * body beside it (`error: { code, message }`, as on every route), and `violations` holding the code and
 * message. Routes opt in with `config.vetoBriefErrors`.
 */
import type { ApiError, ErrorBody } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 403 errors of this route are answered as the veto brief (plus the error body). */
    vetoBriefErrors?: boolean;
  }
}

export interface VetoBriefError extends ErrorBody {
  type: 'SERVICE_GOVERNANCE_VETO';
  summary: string;
  violations: string[];
  remediation: string;
}

const REMEDIATION: Readonly<Record<string, string>> = {
  SCOPE_FORBIDDEN: 'send the action with an API key of scope agent',
  AGENT_FORBIDDEN: 'send the action as the agent this API key is bound to, or with that agent’s own key',
  OPEN_PROPOSALS_LIMIT:
    'wait until an operator has decided some of this key’s proposals waiting for approval, then send it again',
};

export function vetoBriefOf(error: ApiError, body: ErrorBody): VetoBriefError {
  return {
    type: 'SERVICE_GOVERNANCE_VETO',
    // the body's message, as answered (masked: error-handler.ts)
    summary: `refused: ${body.error.message}`,
    violations: [`${error.code}: ${body.error.message}`],
    remediation: REMEDIATION[error.code] ?? 'do not run this action; read violations',
    ...body,
  };
}
