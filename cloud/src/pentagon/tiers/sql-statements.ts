/**
 * SQL statements that destroy a table or all of its rows, for the tools a policy names as running SQL
 * (`tools.sqlTools`): `DROP TABLE`, `TRUNCATE` and a `DELETE` without `WHERE` (every row; OWASP's SQL
 * injection cheat sheets name all three as the payloads that destroy data). The text is read as the
 * database would: comments removed, one statement after another.
 */

/** SQL comments (ISO/IEC 9075: `--` to the end of the line; `/* … *\/`, which every engine accepts). */
const COMMENTS = /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;

/**
 * The statements of `text`, split at `;`. A `;` inside a string literal splits it too: that reading has more
 * statement starts than the database's, never fewer, so it can only refuse more.
 */
export function sqlStatements(text: string): string[] {
  return text
    .replace(COMMENTS, ' ')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const DROP_TABLE = /^drop\s+(?:temporary\s+)?table\b/i;
const TRUNCATE = /^truncate\b/i;
/** `DELETE FROM t` and the dialects' `DELETE t` (T-SQL, Oracle) alike. */
const DELETE = /^delete\s/i;
const WHERE = /\bwhere\b/i;

/** What a destructive statement does, or undefined for any other statement. */
export function tableDestruction(statement: string): string | undefined {
  if (DROP_TABLE.test(statement)) return 'drops a table';
  if (TRUNCATE.test(statement)) return 'empties a table (TRUNCATE)';
  if (DELETE.test(statement) && !WHERE.test(statement))
    return 'deletes every row of a table (DELETE without WHERE)';
  return undefined;
}
