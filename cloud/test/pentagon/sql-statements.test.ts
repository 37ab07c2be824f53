/** SQL statements as a database reads them, and which of them destroy a table (sql-statements.ts). */
import t from 'tap';
import { sqlStatements, tableDestruction } from '../../src/pentagon/tiers/sql-statements.js';

t.test('statements: comments removed, split at semicolons', async (t) => {
  t.same(sqlStatements('SELECT 1; -- a note\n DELETE FROM t /* x */ WHERE id = 1;'), [
    'SELECT 1',
    'DELETE FROM t   WHERE id = 1',
  ]);
  t.same(sqlStatements('/* unclosed DROP TABLE t'), [], 'an unclosed comment runs to the end');
});

t.test('which statements destroy a table', async (t) => {
  for (const s of [
    'DROP TABLE t',
    'drop temporary table t',
    'TRUNCATE t',
    'truncate table t',
    'DELETE FROM t',
    'DELETE t',
  ]) {
    t.ok(tableDestruction(s), s);
  }
  for (const s of [
    'DELETE FROM t WHERE id = 1',
    'SELECT * FROM dropped',
    'DROP INDEX i',
    'INSERT INTO t VALUES (1)',
  ]) {
    t.equal(tableDestruction(s), undefined, s);
  }
});
