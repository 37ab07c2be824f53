/**
 * Migrations whose SQL is the same in SQLite and PostgreSQL, written once and listed by both dialects'
 * schemas (sqlite-schema.ts, postgres-schema.ts) under their own version numbers.
 */

/**
 * Indexes no read uses, which every decision paid for in its write (a leaf page per batch each): decisions
 * are read by id alone (getDecision), and the agent's newest calls (recentCalls, a diagnostic read that no
 * route serves) are found through the (tenant_id, agent_id) prefix the metabolic look-ups' indexes share.
 */
export const UNREAD_INDEXES_DROPPED_SQL =
  'DROP INDEX IF EXISTS decisions_tenant; DROP INDEX IF EXISTS call_history_agent;';

/**
 * Agent identity. agents.account_id: the id the budget ledger and call history of an agent are kept under,
 * the id of the first registration of its agent_name, so a new agent_version (or a first contact under the
 * same name) spends from the same window (records.ts AgentRecord.accountId). Existing agents join the
 * account of their name's first registration. api_keys.agent_name: the agent a key is bound to
 * (app/agent-binding.ts); existing keys stay unbound.
 */
export const AGENT_ACCOUNTS_SQL = `
ALTER TABLE agents ADD COLUMN account_id TEXT;
UPDATE agents SET account_id = (SELECT earliest.id FROM agents earliest
  WHERE earliest.tenant_id = agents.tenant_id AND earliest.name = agents.name
  ORDER BY earliest.created_at_ms, earliest.id LIMIT 1);
ALTER TABLE api_keys ADD COLUMN agent_name TEXT;
`;
