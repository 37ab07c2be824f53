/**
 * The demo's operator working through the cloud: waits until the edge's consent request is in the cloud's
 * approvals queue, says what waits and how a person would grant it, then hands the cloud the token the
 * simulated operator signed with its own key (the cloud relays it to the edge over the edge's link).
 */
import { jcsDigestHex } from '@pentagate/crypto';
import {
  ConsentCloudError,
  relayConsent,
  type WaitingConsent,
  waitingConsents,
} from '@pentagate/edge/commands';
import type { CliIo, DsseEnvelope, Intent } from '@pentagate/protocol';

const APPEAR_TIMEOUT_MS = 3000;

export interface CloudOperator {
  url: string;
  /** An operator API key of the robot's tenant. */
  apiKey: string;
  /** Where that key is kept, for the printed command line. */
  apiKeyPath: string;
  operatorId: string;
  operatorKeyPath: string;
}

/**
 * Why this move waits, in the edge CONSENT gate's terms: over the high-torque threshold, or a move class the
 * profile marks safety-critical whatever its torque (then the peak is below the threshold, and saying only
 * "peak against threshold" reads as if it should have passed).
 */
function whyConsent(r: WaitingConsent['request']): string {
  const peak = `peak ${r.peakEffortNm} N·m`;
  return r.scope === 'high-torque'
    ? `${peak} is above the ${r.highTorqueThresholdNm} N·m high-torque threshold`
    : `move class ${r.moveClass ?? 'default'} is safety-critical (${peak}, high-torque threshold ${r.highTorqueThresholdNm} N·m)`;
}

/**
 * `manual`: the person running the demo is the operator (`demo --manual-consent`): the simulated token is
 * not relayed, and the printed line (or the console's Approvals view) is how the move gets its consent.
 */
export function cloudConsentRelay(
  operator: CloudOperator,
  io: CliIo,
  { manual = false }: { manual?: boolean } = {},
): (token: DsseEnvelope, intent: Intent) => Promise<'relayed' | 'cloud-unreachable'> {
  const cloud = { url: operator.url, key: operator.apiKey };
  const relay = async (token: DsseEnvelope, intent: Intent): Promise<'relayed'> => {
    const digest = jcsDigestHex(intent);
    const deadline = Date.now() + APPEAR_TIMEOUT_MS;
    let move = (await waitingConsents(cloud, intent.robotId)).find((m) => m.intentDigest === digest);
    while (!move && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      move = (await waitingConsents(cloud, intent.robotId)).find((m) => m.intentDigest === digest);
    }
    if (!move) throw new Error(`intent ${intent.intentId} did not appear in the cloud's approvals queue`);
    const r = move.request;
    const grantLine =
      `    npx pentagate consent grant --cloud ${operator.url} --cloud-key-file ${operator.apiKeyPath} ` +
      `--robot ${intent.robotId} --intent-digest ${digest} --key ${operator.operatorKeyPath} --operator ${operator.operatorId}`;
    const waits = `— consent: ${intent.robotId} waits for an operator: intent ${intent.intentId} (${r.moveClass ?? 'default'}), ${whyConsent(r)}.`;
    if (manual) {
      const seconds = Math.max(0, Math.round((Date.parse(move.expiresAt) - Date.now()) / 1000));
      io.out(
        `${waits} It waits for you for ${seconds} s (then the edge vetoes it). Grant it in another terminal with:\n` +
          `${grantLine}\n    or with "Sign consent" in the console's Approvals view.`,
      );
      return 'relayed'; // handled: the person decides; the runner publishes nothing
    }
    io.out(
      `${waits} The simulated operator grants it now (with --manual-consent the demo leaves it to you); ` +
        `the line a person runs:\n${grantLine}`,
    );
    const auditIndex = await relayConsent(cloud, move, token);
    io.out(
      `— consent: ${operator.operatorId} signed it with their own key; the cloud relayed it (audit entry ${auditIndex})`,
    );
    return 'relayed';
  };
  return (token, intent) =>
    relay(token, intent).catch((err: unknown) => {
      if (!(err instanceof ConsentCloudError && err.code === 'CLOUD_UNREACHABLE')) throw err;
      if (!manual) return 'cloud-unreachable';
      // the person grants, never the simulated operator: nothing goes on the consent topic either
      io.out(
        `— consent: the cloud is unreachable; ${intent.intentId} waits until the edge's consent timeout`,
      );
      return 'relayed';
    });
}
