/**
 * The names of specification §2.1 as a plain-JavaScript caller sees them through the package entry:
 * ActionType and AuthorizationStatus are values as well as types, and the error classes of §7 are
 * GovError subclasses named as their class, so `instanceof` and `err.name` both tell the kind.
 */
import * as M from '@pentagate/client';
import t from 'tap';

t.test('every name of §2.1 exists at run time', async (t) => {
  for (const name of [
    'GovClient',
    'ActionType',
    'AuthorizationStatus',
    'GovError',
    'AuthenticationError',
    'ExecutionDeniedError',
    'DoubleExecutionError',
  ])
    t.ok((M as Record<string, unknown>)[name], name);
});

t.test('ActionType and AuthorizationStatus: frozen constants, each value its own type', async (t) => {
  const ledger: M.ActionType = M.ActionType.LEDGER_WRITE;
  const allow: M.AuthorizationStatus = M.AuthorizationStatus.ALLOW;
  t.equal(ledger, 'ledger:write');
  t.equal(allow, 'ALLOW');
  t.same(M.ActionType, {
    LEDGER_WRITE: 'ledger:write',
    VAULT_WRITE: 'vault:write',
    POLICY_UPDATE: 'policy:update',
    TOOL_INVOKE: 'tool:invoke',
    DATA_READ: 'data:read',
    DATA_EXPORT: 'data:export',
    MESSAGE_SEND: 'message:send',
    ACTUATOR_MOVE: 'actuator:move',
    ACTUATOR_STOP: 'actuator:stop',
  });
  t.same(M.AuthorizationStatus, {
    ALLOW: 'ALLOW',
    DENY: 'DENY',
    REQUIRE_HUMAN: 'REQUIRE_HUMAN',
    HELD_FOR_VETO: 'HELD_FOR_VETO',
  });
  t.same(Object.values(M.ActionType), M.ACTION_TYPES, 'the same values as the arrays, in order');
  t.same(Object.values(M.AuthorizationStatus), M.AUTHORIZATION_STATUSES);
  t.ok(Object.isFrozen(M.ActionType) && Object.isFrozen(M.AuthorizationStatus));
});

t.test('each error class subclasses GovError and is named as its class', async (t) => {
  const classes = Object.entries(M).filter(
    ([, v]) => v === M.GovError || (typeof v === 'function' && v.prototype instanceof M.GovError),
  ) as [string, typeof M.GovError][];
  for (const name of ['GovError', 'AuthenticationError', 'ExecutionDeniedError', 'DoubleExecutionError'])
    t.ok(
      classes.some(([n]) => n === name),
      `${name} is exported`,
    );
  for (const [name, ErrorClass] of classes) {
    const err = new ErrorClass('CODE', 'message', 0);
    t.ok(err instanceof M.GovError && err instanceof Error, `${name} is a GovError`);
    t.equal(err.name, name);
    t.equal(String(err), `${name}: message`);
  }

  const thrown = await new M.GovClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'not-a-key' })
    .execute('prp_x')
    .catch((err: unknown) => err);
  t.ok(thrown instanceof M.AuthenticationError, 'what the client throws is the class the entry exports');
  t.ok(thrown instanceof M.GovError);
  t.equal((thrown as Error).name, 'AuthenticationError');
});
