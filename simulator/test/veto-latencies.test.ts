/**
 * Stop latencies are measured from the first moment the robot moved with a person inside the radius. On a
 * loaded machine a move command can reach the controller after the frame that showed the person inside; that
 * motion and its stop must still be measured (from the command's arrival), not reported as "no person entered
 * the radius during a motion".
 */
import type { MotorCommand } from '@pentagate/protocol';
import t from 'tap';
import type { ControllerEvent } from '../src/controller/motor-controller.js';
import { checkExpectations, vetoLatencies } from '../src/runner/expectations.js';
import type { ScenarioTrace } from '../src/runner/trace.js';

const T0 = 1_700_000_000_000;
const RADIUS_M = 1.2;

const move = (atMs: number): ControllerEvent => ({
  kind: 'accepted',
  atMs: T0 + atMs,
  via: 'mqtt',
  command: { intentId: 'place', setpoints: { kind: 'joint' } } as unknown as MotorCommand,
});
const halt = (atMs: number): ControllerEvent => ({
  kind: 'halted',
  atMs: T0 + atMs,
  cause: 'stop-command',
  detail: 'RISK.HUMAN_IN_RADIUS',
});

/** Proximity every 40 ms from 0 to 3000 ms; the person is inside from `inMs` until `outMs`. */
function trace(controller: ControllerEvent[], inMs: number, outMs: number): ScenarioTrace {
  const proximity = [];
  for (let at = 0; at <= 3000; at += 40)
    proximity.push({ atMs: T0 + at, source: 'front', nearestHumanM: at >= inMs && at < outMs ? 0.8 : 3 });
  return {
    startedAtMs: T0,
    samples: [],
    proximity,
    verdicts: [],
    controller,
    events: [],
    intentsAtMs: new Map(),
    radiusM: RADIUS_M,
  };
}

t.test('a motion running when the person enters: measured from the entry frame', async (t) => {
  const lat = vetoLatencies(trace([move(1200), halt(1630)], 1600, 2600));
  t.same(lat, [{ tMs: 1600, latencyMs: 30, kind: 'stop' }]);
});

t.test('a motion that began after the entry frame: measured from its command, not missed', async (t) => {
  const tr = trace([move(1650), halt(1690)], 1600, 2600);
  t.same(vetoLatencies(tr), [{ tMs: 1650, latencyMs: 40, kind: 'stop' }]);
  const within = checkExpectations({ vetoWithinMs: 100 }, tr, new Uint8Array(32));
  t.match(within, [{ name: 'vetoWithinMs 100', ok: true, detail: /1 stop\/veto\(s\); worst 40 ms/ }]);
});

t.test('a motion that began inside and was never stopped fails the bound', async (t) => {
  const tr = trace([move(1650)], 1600, 2600);
  t.same(vetoLatencies(tr), [{ tMs: 1650, latencyMs: null, kind: 'stop' }]);
  t.match(checkExpectations({ vetoWithinMs: 100 }, tr, new Uint8Array(32)), [
    { ok: false, detail: /never stopped/ },
  ]);
});

t.test('no motion during the episode, or a motion halted before it: nothing to measure', async (t) => {
  t.same(vetoLatencies(trace([], 1600, 2600)), []);
  t.same(vetoLatencies(trace([move(300), halt(900)], 1600, 2600)), [], 'halted before the entry');
  t.same(vetoLatencies(trace([move(2700)], 1600, 2600)), [], 'began after the person left');
});

t.test('each episode is measured once, however many commands the motion took', async (t) => {
  const lat = vetoLatencies(trace([move(1000), move(1100), move(1650), halt(1700)], 1600, 2000));
  t.same(lat, [{ tMs: 1600, latencyMs: 100, kind: 'stop' }]);
});
