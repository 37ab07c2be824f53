/**
 * A deliberately unsafe stand-in for the edge (test code only): it signs every intent it hears, with the real
 * HMAC key and a valid seq and epoch, without running a single gate. Run against it, the safety scenarios
 * must FAIL — which proves their expectations can fail. It talks over the machine's Mosquitto
 * (127.0.0.1:1883, anonymous), because the embedded broker only lets the real edge publish commands.
 */
import { signMotorCommand } from '@pentagate/crypto';
import { type Intent, type VerdictEvent, robotTopics } from '@pentagate/protocol';
import mqtt from 'mqtt';
import type { RobotCellFactory } from '../../src/runner/robot-cell.js';

export const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';

export function unsafeEdgeCell(): RobotCellFactory {
  return async (credentials, profile) => {
    const topics = robotTopics(profile.robotId);
    const client = await mqtt.connectAsync(MOSQUITTO_URL, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `unsafe-edge-${Math.random().toString(16).slice(2)}`,
    });
    let seq = 0;
    const lines: string[] = [];
    client.on('message', (_topic, payload) => {
      const intent = JSON.parse(payload.toString('utf8')) as Intent;
      const now = Date.now();
      const setpoints =
        intent.kind === 'joint-trajectory'
          ? { kind: 'joint' as const, jointNames: intent.jointNames, points: intent.points }
          : {
              kind: 'twist' as const,
              linearMps: intent.linearMps,
              angularRadS: intent.angularRadS,
              durationMs: intent.durationMs,
            };
      const command = signMotorCommand(credentials.hmacKey.key, {
        v: 1,
        kid: credentials.hmacKey.kid,
        robotId: profile.robotId,
        epoch: 1,
        seq: ++seq,
        issuedAt: now,
        validUntil: now + profile.command.validForMs,
        intentId: intent.intentId,
        setpoints,
        cfgDigest: '0'.repeat(64),
        evidenceDigest: '0'.repeat(64),
      });
      const verdict: VerdictEvent = {
        v: 1,
        robotId: profile.robotId,
        intentId: intent.intentId,
        outcome: 'signed',
        atMs: now,
        violations: [],
        gates: [],
        commandSeq: command.seq,
      };
      lines.push(`signed ${intent.intentId} seq ${command.seq}`);
      // a QoS 1 publish still unacknowledged when the cell closes (endAsync(true)) rejects with "Connection
      // closed"; the scenario is over by then, so it is dropped with the connection
      const dropped = () => {};
      client.publishAsync(topics.cmd, JSON.stringify(command), { qos: 1 }).catch(dropped);
      client.publishAsync(topics.verdict, JSON.stringify(verdict), { qos: 1 }).catch(dropped);
    });
    await client.subscribeAsync(topics.intent, { qos: 1 });
    const endpoint = { url: MOSQUITTO_URL };
    return {
      robot: endpoint,
      operator: endpoint,
      log: () => lines.join('\n'),
      alive: () => true,
      close: async () => {
        await client.endAsync(true);
      },
    };
  };
}
