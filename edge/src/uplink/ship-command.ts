/**
 * `pentagate edge ship`: ships the audit outbox of a STOPPED edge to the cloud once and exits — what the
 * running edge's uplink does continuously. For the records a shutdown left unshipped (the final STOP),
 * and for an edge that ran without a link. Never run it beside a running edge on the same state directory
 * (one process per outbox).
 */
import { join } from 'node:path';
import { type Command, requireOption } from '@pentagate/protocol';
import { CLOUD_INSECURE_HTTP_OPTION, parseCloudUrl, readSecretFile } from '../cli/cli-values.js';
import { EdgeMetrics } from '../observability/edge-metrics.js';
import { createEdgeLogger } from '../observability/logger.js';
import { lockStateDir } from '../node/state-dir-lock.js';
import { AuditOutbox } from '../outbox/audit-outbox.js';
import { AuditShipper } from './audit-shipper.js';
import { CloudLink, UplinkError } from './cloud-link.js';
import { UplinkMetrics } from './uplink-metrics.js';

/** How often `edge ship` says how far it got while a backlog ships (a day offline is minutes of uploads). */
export const SHIP_PROGRESS_MS = 2000;

/**
 * Progress lines on stderr: where the cloud's copy starts, then at most every SHIP_PROGRESS_MS how many of
 * the records the cloud holds and the rate, so a long catch-up never looks hung.
 */
function shipProgress(io: { err(text: string): void }, robotId: string, total: number) {
  const startedMs = Date.now();
  let first: number | undefined;
  let saidMs = startedMs;
  return (acknowledged: number) => {
    const nowMs = Date.now();
    if (first === undefined) {
      first = acknowledged;
      if (acknowledged < total) {
        io.err(
          `pentagate edge ship: robot ${robotId}: the cloud holds ${acknowledged} of ${total} records; shipping ${total - acknowledged}`,
        );
      }
      return;
    }
    if (nowMs - saidMs < SHIP_PROGRESS_MS || acknowledged >= total) return;
    saidMs = nowMs;
    const rate = Math.round(((acknowledged - first) * 1000) / Math.max(1, nowMs - startedMs));
    io.err(`pentagate edge ship: ${acknowledged} of ${total} records in the cloud (${rate} records/s)`);
  };
}

export const edgeShipCommand: Command = {
  path: ['edge', 'ship'],
  summary: "Ship a stopped edge's audit outbox to the cloud once",
  usage: '--state-dir DIR --robot ROBOT_ID --cloud URL --cloud-key-file FILE [--json]',
  description: [
    'Opens the audit outbox in --state-dir (refused while an edge runs on it), asks the cloud where its copy of',
    "the robot's chain ends, ships the rest in order and exits. Prints how many records the cloud holds;",
    'while a backlog ships, says on stderr every 2 s how far it got.',
    'Exit codes: 0 everything shipped, 1 the cloud is unreachable or refused the records, 2 bad usage or an',
    'unreadable outbox.',
  ].join('\n'),
  options: {
    'state-dir': { type: 'string', valueName: 'DIR', description: 'the edge state directory (outbox.jsonl)' },
    robot: { type: 'string', valueName: 'ROBOT_ID', description: 'the robot id the cloud registered' },
    cloud: { type: 'string', valueName: 'URL', description: 'the cloud base URL' },
    'cloud-key-file': { type: 'string', valueName: 'FILE', description: "file holding the robot's edge key" },
    ...CLOUD_INSECURE_HTTP_OPTION,
    json: { type: 'boolean', description: 'print { robotId, records, acknowledged }' },
  },
  async run(args, io) {
    const robotId = requireOption(args, 'robot');
    const link = new CloudLink({
      url: parseCloudUrl(requireOption(args, 'cloud'), args),
      key: await readSecretFile(requireOption(args, 'cloud-key-file'), 'cloud-key-file'),
      robotId,
    });
    const stateDir = requireOption(args, 'state-dir');
    // The outbox is the running edge's while it runs: refused while `edge run` holds the directory.
    let lost: Error | undefined;
    const lock = await lockStateDir(stateDir, {
      purpose: 'edge ship',
      onLost: (err) => {
        lost = err;
      },
    });
    let outbox: AuditOutbox;
    try {
      outbox = await AuditOutbox.open(join(stateDir, 'outbox.jsonl'));
    } catch (err) {
      await lock.release();
      throw err;
    }
    try {
      const shipper = new AuditShipper({
        outbox,
        link,
        metrics: new UplinkMetrics(new EdgeMetrics().registry),
        logger: createEdgeLogger({ level: 'silent' }),
        onAcknowledged: shipProgress(io, robotId, outbox.count),
      });
      let acknowledged: number;
      try {
        acknowledged = await shipper.drain();
      } catch (err) {
        if (!(err instanceof UplinkError)) throw err;
        io.err(`pentagate edge ship: ${err.message}`);
        return 1;
      }
      io.out(
        args.options.json
          ? JSON.stringify({ robotId, records: outbox.count, acknowledged })
          : `robot ${robotId}: the cloud holds ${acknowledged} of ${outbox.count} records`,
      );
      if (lost !== undefined) {
        io.err(`pentagate edge ship: the lock of ${stateDir} was lost while shipping (${lost.message})`);
        return 1;
      }
      return 0;
    } finally {
      await outbox.close();
      await lock.release();
    }
  },
};
