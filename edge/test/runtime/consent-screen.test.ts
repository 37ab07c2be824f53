/**
 * The node's consent screen (node/consent-screen.ts): with a cloud link, a consent token the screen holds —
 * one signed by a key from the cloud, until the keys are read again — reaches the gate only once the hold
 * settles, resolved or rejected, and is judged then; a token the screen lets through goes to the gate at once;
 * and one still held when the node stops is dropped, not judged by a stopped node.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { startedNode } from './helpers/started-node.js';

/** A screen that holds every token until the test settles its hold. */
function manualScreen() {
  const held: unknown[] = [];
  const settle: ((ok: boolean) => void)[] = [];
  return {
    held,
    settle: (i: number, ok = true) => settle[i]?.(ok),
    hold(token: unknown): Promise<void> {
      held.push(token);
      return new Promise((resolve, reject) =>
        settle.push((ok) => (ok ? resolve() : reject(new Error('cloud unreachable')))),
      );
    },
  };
}

const consentVerdicts = (verdicts: { violations: string[] }[]) =>
  verdicts.filter((v) => v.violations.some((x) => x.startsWith('CONSENT.')));

for (const [how, ok] of [
  ['read again', true],
  ['could not be read again', false],
] as const) {
  t.test(`a held token is judged once its hold settles (the keys ${how}), not before`, async (t) => {
    const { node, transport, fixture } = await startedNode(t);
    const screen = manualScreen();
    node.screenConsents(screen);
    transport.deliver(robotTopics(fixture.robotId).consent, { payloadType: 'x', signatures: [] });
    t.same(screen.held, [{ payloadType: 'x', signatures: [] }], 'the screen got the parsed token');
    await sleep(50);
    t.same(consentVerdicts(transport.verdicts()), [], 'nothing judged while held');
    screen.settle(0, ok);
    await sleep(20);
    await node.settled();
    const judged = consentVerdicts(transport.verdicts());
    t.equal(judged.length, 1, 'judged by the gate once released');
    t.match(judged[0]?.violations[0], /^CONSENT\.INVALID/, 'refused: no trusted signature');
  });
}

t.test('a token the screen lets through is judged at once', async (t) => {
  const { node, transport, fixture } = await startedNode(t);
  node.screenConsents({ hold: () => undefined });
  transport.deliver(robotTopics(fixture.robotId).consent, { signatures: [] });
  t.equal(consentVerdicts(transport.verdicts()).length, 1, 'judged in the handler itself');
});

t.test('a token still held when the node stops is dropped', async (t) => {
  const { node, transport, fixture } = await startedNode(t);
  const screen = manualScreen();
  node.screenConsents(screen);
  transport.deliver(robotTopics(fixture.robotId).consent, { signatures: [] });
  await node.stop();
  const before = transport.verdicts().length;
  screen.settle(0);
  await sleep(20);
  t.equal(transport.verdicts().length, before, 'nothing judged or published after the stop');
});
