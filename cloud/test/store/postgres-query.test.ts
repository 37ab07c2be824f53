/**
 * oneStatement (postgres-query.ts): several INSERTs become one statement whose placeholders follow on from
 * each other; what PostgreSQL makes of it runs in the conformance suite (every decision is written so).
 */
import t from 'tap';
import { oneStatement } from '../../src/store/postgres-query.js';

t.test('renumbers each INSERT after the previous ones and keeps the parameters in that order', async (t) => {
  const one = oneStatement([
    { sql: 'INSERT INTO a (x, y) VALUES ($1, $2)', params: [1, 2] },
    { sql: 'INSERT INTO b (x) VALUES ($1)', params: ['three'] },
    { sql: "INSERT INTO c (x, y, z) VALUES ($1, 'lit', $2)", params: [4, null] },
  ]);
  t.equal(
    one.sql,
    "WITH s0 AS (INSERT INTO a (x, y) VALUES ($1, $2)), s1 AS (INSERT INTO b (x) VALUES ($3)) INSERT INTO c (x, y, z) VALUES ($4, 'lit', $5)",
  );
  t.same(one.params, [1, 2, 'three', 4, null]);
});

t.test('one INSERT stays as it is; none is refused', async (t) => {
  t.same(oneStatement([{ sql: 'INSERT INTO a VALUES ($1)', params: [1] }]), {
    sql: 'INSERT INTO a VALUES ($1)',
    params: [1],
  });
  t.throws(() => oneStatement([]), /at least one INSERT/);
});
