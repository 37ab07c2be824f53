/** Broker refusals reach the log summarised: the first per reason at once, the rest as one line per window. */
import { Writable } from 'node:stream';
import t from 'tap';
import { refusalLog } from '../../src/broker/refusal-log.js';
import { createEdgeLogger } from '../../src/observability/logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, log: createEdgeLogger({ destination }) };
}

t.test('a flood of refusals is one line per reason, then one summary per window', async (t) => {
  const { lines, log } = capture();
  const refusals = refusalLog(log, 100);
  for (let i = 0; i < 500; i++) {
    refusals.onRefusal({ reason: 'too-many-pending', address: `10.0.0.${i % 7}`, detail: 'cap' });
  }
  refusals.onRefusal({ reason: 'connect-timeout', address: '10.0.0.1', detail: 'no CONNECT' });
  t.equal(lines.length, 2, 'the first of each reason is logged at once');
  t.match(lines[0], {
    reason: 'too-many-pending',
    address: '10.0.0.0',
    msg: 'embedded broker refused a connection',
  });
  await new Promise((r) => setTimeout(r, 200));
  t.equal(lines.length, 3, 'one summary line');
  t.match(lines[2], {
    msg: 'embedded broker: further connections refused',
    refused: { 'too-many-pending': 499 },
    distinctAddresses: 7,
  });
  t.equal((lines[2]?.addresses as unknown[] | undefined)?.length, 5, 'the five addresses refused most');
  refusals.onRefusal({ reason: 'too-many-pending', address: '10.0.0.9', detail: 'cap' });
  t.equal(lines.length, 4, 'a new window logs the first refusal at once again');
  refusals.flush();
  t.equal(lines.length, 4, 'nothing more to summarise');
});
