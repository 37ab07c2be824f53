/**
 * Wrong arguments from plain JavaScript (no type checker) fail as a GovError — specification §7: GovError
 * is "base class of all client errors" — named and unsent: never a TypeError from inside the client, a
 * time-out that was never a time-out, or the server's answer about another value than the one passed.
 */
import t from 'tap';
import { GovClient, type GovError, type ProposedAction, ValidationFailedError } from '../src/index.js';
import { proxyPage, rawServer } from './live-cloud.js';

const FAKE_KEY = `pgk_${'A'.repeat(43)}`;
// the arguments a JavaScript caller can get wrong, cast past the type checker
const loose = (v: unknown) => v as never;

const ACTION: ProposedAction = {
  type: 'ledger:write',
  payload: { amount: 1, recipient: 'Contoso Ltd' },
  context: { agentId: 'billing-agent', confidenceScore: 0.9 },
};

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

t.test('bad construction options throw ValidationFailedError naming the option', async (t) => {
  const base = { baseUrl: 'http://127.0.0.1:8080', apiKey: FAKE_KEY };
  const cases: [unknown, RegExp][] = [
    [undefined, /^options: expected an object with baseUrl and apiKey, got undefined/],
    [null, /^options: expected .*, got null/],
    ['http://127.0.0.1:8080', /^options: expected .*, got "http/],
    [{ ...base, baseUrl: new URL(base.baseUrl) }, /^baseUrl: expected an http\(s\) URL string/],
    [{ ...base, timeoutMs: 'abc' }, /^timeoutMs: expected .*, got "abc"/],
    [{ ...base, timeoutMs: 0 }, /^timeoutMs: .*, got 0/],
    [{ ...base, timeoutMs: -1 }, /^timeoutMs: .*, got -1/],
    // setTimeout fires at once beyond 2^31 - 1 ms: a long time-out would have failed every call
    [{ ...base, timeoutMs: 2 ** 31 }, /^timeoutMs: .*, got 2147483648/],
    [{ ...base, maxRetries: 'x' }, /^maxRetries: expected an integer >= 0, got "x"/],
    [{ ...base, maxRetries: Number.POSITIVE_INFINITY }, /^maxRetries: .*, got Infinity/],
    [{ ...base, maxRetries: 1.5 }, /^maxRetries: .*, got 1.5/],
    [{ ...base, retryDelayMs: -5 }, /^retryDelayMs: .*, got -5/],
    [{ ...base, fetch: 'nope' }, /^fetch: expected a function, got "nope"/],
  ];
  for (const [options, message] of cases) {
    let thrown: unknown;
    try {
      new GovClient(loose(options));
    } catch (err) {
      thrown = err;
    }
    t.type(thrown, ValidationFailedError, String(message));
    t.match((thrown as GovError | undefined)?.message, message);
    t.equal((thrown as GovError | undefined)?.code, 'INVALID_OPTIONS');
  }
  t.doesNotThrow(() => new GovClient({ ...base, timeoutMs: 1, maxRetries: 0, retryDelayMs: 0 }));
});

t.test('wrong method arguments reject with ValidationFailedError, unsent', async (t) => {
  const server = await rawServer(t, proxyPage(200));
  const client = new GovClient({ baseUrl: server.baseUrl, apiKey: FAKE_KEY });
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    ['authorize(null)', () => client.authorize(loose(null)), /^action: expected an object, got null/],
    ['authorize()', () => client.authorize(loose(undefined)), /^action: expected an object, got undefined/],
    ['authorize([])', () => client.authorize(loose([ACTION])), /^action: expected an object, got array/],
    ['execute(5)', () => client.execute(loose(5)), /^proposalId: expected a string, got 5/],
    ['execute(null)', () => client.execute(loose(null)), /^proposalId: expected a string, got null/],
    ['execute()', () => client.execute(loose(undefined)), /^proposalId: expected a string, got undefined/],
    [
      'execute({ proposalId: 5 })',
      () => client.execute(loose({ proposalId: 5 })),
      /^proposalId: expected a string, got 5/,
    ],
    ['replay()', () => client.replay(loose(undefined)), /^proposalId: expected a string, got undefined/],
    [
      'replay({ proposalId })',
      () => client.replay(loose({ proposalId: 'prp_x' })),
      /^proposalId: expected a string, got object/,
    ],
    [
      'getAuditEvents(null)',
      () => client.getAuditEvents(loose(null)),
      /^query: expected an object, got null/,
    ],
    [
      'getAuditEvents({ from: "yesterday" })',
      () => client.getAuditEvents({ from: loose('yesterday') }),
      /^from: expected Unix ms or a Date, got "yesterday"/,
    ],
    [
      'getAuditEvents({ to: invalid Date })',
      () => client.getAuditEvents({ to: new Date(Number.NaN) }),
      /^to: expected Unix ms or a Date, got an invalid Date/,
    ],
    [
      'authorize(action, { signal: "x" })',
      () => client.authorize(ACTION, loose({ signal: 'x' })),
      /^signal: expected an AbortSignal, got "x"/,
    ],
    [
      'getAuditEvents({}, { signal: {} })',
      () => client.getAuditEvents({}, loose({ signal: {} })),
      /^signal: expected an AbortSignal, got object/,
    ],
  ];
  for (const [label, call, message] of cases) {
    let sync: unknown;
    let pending: Promise<unknown> | undefined;
    try {
      pending = call();
    } catch (err) {
      sync = err;
    }
    t.equal(sync, undefined, `${label} rejects rather than throwing synchronously`);
    const err = pending ? await rejection(pending) : sync;
    t.type(err, ValidationFailedError, label);
    t.match((err as GovError | undefined)?.message, message, label);
    t.same(
      [(err as GovError | undefined)?.code, (err as GovError | undefined)?.status],
      ['INVALID_ARGUMENT', 0],
      label,
    );
  }
  t.equal(server.hits, 0, 'nothing was sent');
});
