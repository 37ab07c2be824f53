/**
 * A command is never handed to a transport after its validUntil, whichever transport it is. The MQTT transport
 * refused a late one, and the node then stopped the robot (EDGE.COMMAND_UNSENT): the gate watches the plan of
 * the command it signed last, so a robot left on the motion before it is watched by nobody. The serial line
 * wrote the late command as if it had been taken; the controller refused it as expired, the robot ran on with
 * the earlier 10 s move, and no STOP came. Here the audit outbox takes longer than the command's validity to
 * make the verdict durable (a slow disk), over a real socat line with the real node.
 */
import { join } from 'node:path';
import { acceptMotorCommand, type ControllerState } from '@pentagate/crypto';
import type { MotorCommand } from '@pentagate/protocol';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { SerialTransport } from '../../src/serial/serial-transport.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { startedNode } from '../runtime/helpers/started-node.js';
import { PtyPair, socatMissing } from './helpers/pty-pair.js';
import { Controller } from './helpers/serial-controller.js';

const isCommand = (v: unknown): v is MotorCommand => typeof (v as MotorCommand).mac === 'string';

t.test(
  'over a serial line, a command that expired while its verdict was made durable is not sent, and the robot is stopped',
  { skip: socatMissing() },
  async (t) => {
    const dir = t.testdir();
    const pty = new PtyPair(dir);
    await pty.start();
    t.teardown(() => pty.stop());
    const fixture = armFixture({ robotId: 'mcu-arm' });
    const validForMs = fixture.profile.command.validForMs;
    const transport = await SerialTransport.open({ path: pty.edgePath, robotId: fixture.robotId });
    const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
    let slowDisk = false;
    const append = outbox.append.bind(outbox);
    outbox.append = async (verdict) => {
      if (slowDisk && verdict.outcome === 'signed') await new Promise((r) => setTimeout(r, validForMs + 300));
      return append(verdict);
    };
    const { node } = await startedNode(t, { fixture, transport, outbox });
    const mcu = await Controller.open(pty.controllerPath, 'ndjson');
    t.teardown(() => mcu.close());
    const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
    let state: ControllerState = { robotId: fixture.robotId, epoch: 0, lastSeq: 0 };

    for (const frame of fixture.passingFrames(1, Date.now())) mcu.send(frame);
    mcu.send(fixture.smallMove('long', 100)); // 10 s
    const long = await mcu.next<MotorCommand>((v) => isCommand(v) && v.intentId === 'long');
    const took = acceptMotorCommand(state, long, { keys, nowMs: Date.now() });
    t.ok(took.accepted, 'the controller runs the long move');
    if (took.accepted) state = took.state;

    slowDisk = true;
    for (const frame of fixture.passingFrames(2, Date.now())) mcu.send(frame);
    mcu.send(fixture.smallMove('short', 2));
    const next = await mcu.next<MotorCommand>((v) => isCommand(v) && v.seq > long.seq, validForMs + 5000);
    await node.settled();
    t.equal(
      next.setpoints.kind,
      'stop',
      `the next command on the line is a STOP (got ${next.setpoints.kind})`,
    );
    t.match(next.setpoints, { kind: 'stop', reason: /EDGE\.COMMAND_UNSENT|could not be published/ });
    const stopped = acceptMotorCommand(state, next, { keys, nowMs: Date.now() });
    t.ok(stopped.accepted, `the controller takes the STOP (${stopped.accepted ? 'ok' : stopped.detail})`);
    const after = [next, ...mcu.received.filter(isCommand)];
    t.notOk(
      after.some((c) => c.intentId === 'short' && c.setpoints.kind !== 'stop'),
      'the expired command never went down the line',
    );
  },
);
