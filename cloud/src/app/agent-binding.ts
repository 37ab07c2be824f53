/**
 * Agent-bound API keys. The specification leaves how tenant keys are scoped open (§5.5); an administrator
 * may bind an agent key to one agent_name at issue (`pentagate cloud apikey issue --agent NAME`). A bound
 * key registers, proposes, self-corrects and authorizes only as that agent — any version of it — so one
 * agent cannot spend another agent's budget by naming its lobe (§2.3 lobe_name, §2.5 agent_id and the
 * kernel's context.agentId are chosen by the caller), nor open a fresh budget under a new agent_name. The
 * check runs before anything is registered, reserved or recorded. An unbound key acts for every agent of
 * its tenant, as before binding existed.
 */
import type { Caller } from './auth.js';
import { dottedPath } from '../json-pointer.js';
import { ApiError } from './errors.js';

/**
 * Throws AGENT_FORBIDDEN when `caller`'s key is bound to an agent other than `agentName`. `field` names the
 * request member that chose the agent (`/lobe_name`, `/action/agent_id`, …), for the error's details.
 */
export function requireAgentOfKey(caller: Caller, agentName: string, field: string): void {
  if (caller.agentName === undefined || caller.agentName === agentName) return;
  throw new ApiError(
    'AGENT_FORBIDDEN',
    `${dottedPath(field)}: this API key is bound to agent ${JSON.stringify(caller.agentName)}, got agent ${JSON.stringify(agentName)}`,
    { issues: [{ path: field, message: `the key acts only as agent ${JSON.stringify(caller.agentName)}` }] },
  );
}
