/**
 * The audit log's filter columns on PostgreSQL (AUDIT_FILTER_COLUMNS, audit-events-query.ts): the fields
 * the console's indexes read, kept beside the entry so an append parses the entry once, not once per
 * index expression.
 *
 * The database fills them, not the writer: a BEFORE INSERT trigger parses the entry and sets every column,
 * overwriting whatever an INSERT gave. So a column always says what its entry says, whichever process
 * appended it (a replica of an older release too), and no writer can file an entry under another tenant.
 * Entries appended before the columns existed are filled once, by the migration, with the append-only
 * trigger set aside for that one statement inside the migration's transaction (a failure rolls all of it
 * back, the trigger included).
 */
import { AUDIT_FILTER_COLUMNS, postgresAuditExpression } from '../audit-events-query.js';

/** Each column of the new row set from `e`, its parsed entry (PL/pgSQL). */
const ASSIGNMENTS = AUDIT_FILTER_COLUMNS.map(
  (c) => `NEW.${c.column} := ${postgresAuditExpression(c.path, 'e')};`,
).join(' ');

export const AUDIT_FILTER_COLUMNS_SQL = `
ALTER TABLE audit_log ${AUDIT_FILTER_COLUMNS.map((c) => `ADD COLUMN ${c.column} TEXT`).join(', ')};
CREATE FUNCTION audit_log_filter_fields() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE e jsonb := NEW.entry::jsonb;
  BEGIN ${ASSIGNMENTS} RETURN NEW; END $$;
CREATE TRIGGER audit_log_filter_fields BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_filter_fields();
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change;
UPDATE audit_log SET ${AUDIT_FILTER_COLUMNS.map((c) => `${c.column} = ${postgresAuditExpression(c.path, 'parsed.e')}`).join(', ')}
  FROM (SELECT idx, entry::jsonb AS e FROM audit_log) AS parsed WHERE audit_log.idx = parsed.idx;
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change;
`;
