/**
 * String bounds count characters (Unicode code points), as JSON Schema defines minLength and maxLength
 * (draft 2020-12 validation §6.3.1, "the number of its characters as defined by RFC 8259"): the schemas are
 * served to clients (the schema route, /openapi.json), and a standard validator counts `😀` as one character.
 * Before, the checker counted UTF-16 code units (`'😀'.length === 2`), so a string the served schema allows
 * was refused.
 */
import { AgentRegistrationSchema, conforms, schemaIssues } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import t from 'tap';

t.test('maxLength and minLength count code points, not UTF-16 code units', async (t) => {
  const bounded = Type.String({ minLength: 2, maxLength: 3 });
  t.same(schemaIssues(bounded, '😀😀😀'), [], 'three astral characters fit maxLength 3');
  t.ok(conforms(bounded, '😀😀'), 'two characters meet minLength 2');
  t.notOk(conforms(bounded, '😀'), 'one astral character (two code units) is below minLength 2');
  const over = schemaIssues(bounded, '😀😀😀😀');
  t.equal(over.length, 1);
  t.match(over[0], { path: '', message: /expected 2 to 3 characters, got 4 characters/ });
  t.same(schemaIssues(bounded, 'abc'), [], 'ASCII is unchanged');
  t.equal(schemaIssues(bounded, 'abcd').length, 1);
});

t.test('a registration with a 128-character emoji agent_name is valid, 129 is not', async (t) => {
  const registration = (name: string) => ({
    agent_name: name,
    domain: 'FINANCE',
    capabilities: ['🤖'.repeat(128)],
    agent_version: '1',
    model_id: 'm',
  });
  t.same(schemaIssues(AgentRegistrationSchema, registration('🤖'.repeat(128))), []);
  t.match(schemaIssues(AgentRegistrationSchema, registration('🤖'.repeat(129))), [{ path: '/agent_name' }]);
});

t.test('the served schema is unchanged: a plain maxLength, no checker-only keyword', async (t) => {
  const served = JSON.parse(JSON.stringify(AgentRegistrationSchema));
  t.equal(served.properties.agent_name.maxLength, 128);
  t.notOk('format' in served.properties.agent_name);
});

t.test('a bounded string that breaks its pattern is reported as a pattern problem, once', async (t) => {
  const name = Type.String({ minLength: 1, maxLength: 8, pattern: '^[a-z]+$' });
  // within the bounds, against the pattern: before, the message spoke of the bounds ("expected 1 to 8
  // characters, got 1 characters"), which the value meets
  const control = schemaIssues(name, '\u0000');
  t.equal(control.length, 1);
  t.match(control[0], { path: '', message: /expected string to match '\^\[a-z\]\+\$'/ });
  t.notMatch(control[0]!.message, /characters/);
  // outside the bounds and against the pattern: each problem once (before, the bounds message twice)
  const empty = schemaIssues(name, '');
  t.same(empty.map((i) => i.message).sort(), [
    'expected 1 to 8 characters, got 0 characters',
    `expected string to match '^[a-z]+$', got ""`,
  ]);
  t.same(schemaIssues(name, 'abc'), [], 'a valid value has no issue');
});
