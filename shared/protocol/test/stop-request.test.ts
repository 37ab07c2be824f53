/**
 * A closed output is a stop request for a long-running command (`pentagate demo | tee log` and Ctrl-C):
 * the root bin asks `stopForClosedOutput` whether a command is stopping by itself before it ends the
 * process. The cases run in order: the module remembers that a stop is under way, as the process does.
 */
import t from 'tap';
import {
  CLOSED_OUTPUT,
  onStopRequest,
  stopForClosedOutput,
  untilStopRequest,
} from '../src/cli/stop-request.js';

t.test('with no command listening, a closed output is not handled: the bin ends the process', async (t) => {
  t.equal(stopForClosedOutput(), false);
});

t.test('a command that listens is asked to stop, once, and the process lives on', async (t) => {
  const reasons: string[] = [];
  const off = onStopRequest((reason) => reasons.push(reason));
  const stopped = untilStopRequest();
  t.equal(stopForClosedOutput(), true);
  t.same(reasons, [CLOSED_OUTPUT]);
  t.equal(await stopped, 'output closed', 'the reason a command prints');
  off();
});

t.test('once a stop is under way, later closed outputs leave it to finish', async (t) => {
  // The command removed its listener at the first request (cloud serve, edge run) and is still
  // draining: every further failed write must not end the process under it.
  t.equal(stopForClosedOutput(), true);
});
