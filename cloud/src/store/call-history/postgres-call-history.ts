/**
 * The call history on PostgreSQL: one row per decided call, what the metabolic ledger (pentagon tier3
 * economic) reads back to spot repeats and probing. The row is written in the decision's transaction
 * (decisions/postgres-decisions.ts); `seq` orders calls made in the same millisecond.
 */
import type { PostgresQuery, SqlStatement } from '../postgres-query.js';
import type { CallHistoryRecord } from '../records.js';
import { callValues, toCall } from '../row-mappers.js';
import type { DecisionParts, RelevantCallsQuery } from '../store.js';

type CallParts = NonNullable<DecisionParts['call']>;

export class PostgresCallHistory {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  /** The call's INSERT, for the decision's transaction. */
  callInsert(decisionId: string, tenantId: string, agentId: string, call: CallParts): SqlStatement {
    return {
      sql: `INSERT INTO call_history (decision_id, tenant_id, agent_id, tool_name, tool_key, fingerprint, near_fingerprint,
       at_ms, approved, violations) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      params: callValues(decisionId, tenantId, agentId, call, call.approved),
    };
  }

  async recentCalls(
    tenantId: string,
    agentId: string,
    sinceMs: number,
    limit: number,
  ): Promise<CallHistoryRecord[]> {
    const rows = await this.#query(
      `SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND at_ms >= $3
       ORDER BY at_ms DESC, seq DESC LIMIT $4`,
      [tenantId, agentId, sinceMs, limit],
    );
    return rows.map(toCall).reverse();
  }

  /** `query`: the pool, or a decision transaction's client (clientQuery). */
  async relevantCalls(
    tenantId: string,
    agentId: string,
    q: RelevantCallsQuery,
    query: PostgresQuery = this.#query,
  ): Promise<CallHistoryRecord[]> {
    const rows = await query(RELEVANT_CALLS_SQL, relevantCallsParams(tenantId, agentId, q));
    return rows.map(toCall).reverse();
  }
}

/**
 * The calls a decision's metabolic ledger reads (RelevantCallsQuery): the same fingerprint or near
 * fingerprint since $4, and the tool's denied calls since $7, newest first, at most $8. Each reads its own
 * index (call_history_fingerprint, _near, _denied) once the tables have statistics (postgres-statistics.ts).
 */
export const RELEVANT_CALLS_SQL = `SELECT * FROM (
         SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND fingerprint = $3 AND at_ms >= $4
         UNION
         SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND near_fingerprint = $5 AND at_ms >= $4
         UNION
         SELECT * FROM call_history
          WHERE tenant_id = $1 AND agent_id = $2 AND tool_key = $6 AND approved = false AND at_ms >= $7
       ) AS relevant ORDER BY at_ms DESC, seq DESC LIMIT $8`;

/** RELEVANT_CALLS_SQL's parameters, $1 to $8. */
export function relevantCallsParams(tenantId: string, agentId: string, q: RelevantCallsQuery): unknown[] {
  return [
    tenantId,
    agentId,
    q.fingerprint,
    q.repeatSinceMs,
    q.nearFingerprint,
    q.toolName.toLowerCase(),
    q.deniedSinceMs,
    q.limit,
  ];
}
