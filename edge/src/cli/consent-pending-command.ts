/**
 * `pentagate consent pending`: the robot moves waiting for an operator in the cloud's approvals queue, with
 * what the operator judges them by (move class, peak torque against the threshold, the tool path's reach),
 * and the `consent grant` line that signs and relays one.
 */
import { type Command, ExitCode, requireOption } from '@pentagate/protocol';
import { CLOUD_INSECURE_HTTP_OPTION, optionalString, parseCloudUrl, readSecretFile } from './cli-values.js';
import { ConsentCloudError, type WaitingConsent, waitingConsents } from '../uplink/operator-consent.js';

function describe(m: WaitingConsent, cloudUrl: string): string {
  const r = m.request;
  const seconds = Math.max(0, Math.round((Date.parse(m.expiresAt) - Date.now()) / 1000));
  return [
    `${m.robotId}  intent ${r.intentId}  ${r.moveClass ?? 'default'}  ${r.scope}  ${seconds} s left`,
    `  peak torque ${r.peakEffortNm} N·m (threshold ${r.highTorqueThresholdNm} N·m, limits ${r.torqueLimitsNm.join('/')} N·m)`,
    `  ${r.reasons.join('; ')}`,
    `  path: ${r.pathM.length} points, zones: ${r.zones.map((z) => z.id).join(', ') || 'none'}`,
    `  grant: npx pentagate consent grant --cloud ${cloudUrl} --cloud-key-file OPERATOR_API_KEY_FILE --robot ${m.robotId} --intent-digest ${m.intentDigest} --key OPERATOR_KEY --operator OPERATOR_ID`,
  ].join('\n');
}

export const consentPendingCommand: Command = {
  path: ['consent', 'pending'],
  summary: "List robot moves waiting for an operator's consent in the cloud",
  usage: '--cloud URL --cloud-key-file FILE [--robot ID] [--json]',
  description: [
    "Reads the cloud's approvals queue for robot moves waiting for consent (oldest first): robot, intent, move",
    'class, scope needed, time left, peak planned torque against the threshold and the joint limits, why',
    'consent is needed, the tool path and the keep-out zones it was checked against; and the `consent grant`',
    'line that signs one with your key and relays it. --json prints the queue items as the cloud serves them.',
    'Exit codes: 0 listed; 1 the cloud is unreachable or refused; 2 bad usage or an unreadable key file.',
  ].join('\n'),
  options: {
    cloud: { type: 'string', description: 'The cloud base URL', valueName: 'URL' },
    'cloud-key-file': { type: 'string', description: 'File holding an operator API key', valueName: 'FILE' },
    ...CLOUD_INSECURE_HTTP_OPTION,
    robot: { type: 'string', description: "Only this robot's moves", valueName: 'ID' },
    json: { type: 'boolean', description: 'Print { items } as JSON' },
  },
  async run(args, io) {
    const url = parseCloudUrl(requireOption(args, 'cloud'), args);
    const cloud = { url, key: await readSecretFile(requireOption(args, 'cloud-key-file'), 'cloud-key-file') };
    let moves: WaitingConsent[];
    try {
      moves = await waitingConsents(cloud, optionalString(args, 'robot'));
    } catch (err) {
      if (!(err instanceof ConsentCloudError)) throw err;
      io.err(`pentagate consent pending: ${err.message}`);
      return 1;
    }
    if (args.options.json) io.out(JSON.stringify({ items: moves }));
    else if (moves.length === 0) io.out('(no robot move is waiting for consent)');
    else for (const m of moves) io.out(describe(m, url));
    return ExitCode.ok;
  },
};
