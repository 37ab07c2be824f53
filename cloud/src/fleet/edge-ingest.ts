/**
 * Store-and-forward, the cloud's half: a batch of an edge's outbox records is checked and appended to the
 * robot's chain (fleet-chain.ts) — each new record becomes an `edge.verdict` leaf of the audit log, whose
 * subject is the record's digest and whose data holds the record itself, so `pentagate verify kit` can
 * re-check the robot's chain and command history offline.
 *
 * Idempotent by (robot, index, record digest): a resend or replay is acknowledged without storing twice.
 * A gap (a batch ahead of the stored head: reordered or lost batches), a fork or a rewritten record, and a
 * record that names another robot are refused whole — nothing is stored — raised as an alarm (metric,
 * error log, live event) and recorded as a refusal in the audit log by the error handler. So is a batch
 * whose signed commands break the robot's command history, within the batch or against the last command
 * stored (EDGE_HISTORY_INVALID, fleet-chain.ts): the offline verifier checks every kit by that same rule,
 * and one such record in the append-only log would make every kit exported after it invalid.
 */
import { sha256Hex } from '@pentagate/crypto';
import {
  canonicalize,
  type EdgeAuditRecord,
  type EdgeChainAck,
  verdictContradictions,
} from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { AuditLog } from '../audit/audit-log.js';
import type { EdgeRecordWrite, RobotRecord } from '../store/fleet-store.js';
import type { FleetContext } from './fleet-context.js';

/** The audit entry type of a shipped edge record. */
export const EDGE_RECORD_ENTRY = 'edge.verdict';

export function recordDigest(record: EdgeAuditRecord): string {
  return sha256Hex(canonicalize(record));
}

/** The active robot an edge key may act for; an edge key of another robot is refused. */
export async function robotOfCaller(f: FleetContext, caller: Caller, robotId: string): Promise<RobotRecord> {
  const robot = await f.store.getRobot(caller.tenantId, robotId);
  if (!robot || robot.retiredAtMs !== null) {
    throw new ApiError('ROBOT_NOT_FOUND', `no active robot ${robotId} in this tenant`);
  }
  if (caller.scope === 'edge' && robot.edgeKeyId !== caller.keyId) {
    raiseAlarm(
      f,
      caller.tenantId,
      robotId,
      'wrong-credential',
      `an edge key of another robot (${caller.keyId}) acted for ${robotId}`,
    );
    throw new ApiError('ROBOT_FORBIDDEN', `this edge key is not bound to robot ${robotId}`);
  }
  return robot;
}

function raiseAlarm(f: FleetContext, tenantId: string, robotId: string, kind: string, message: string): void {
  f.alarms.inc({ kind });
  f.live.publish(tenantId, { type: 'alarm', robotId, kind, message, atMs: f.nowMs() });
}

function refuse(f: FleetContext, tenantId: string, robotId: string, kind: string, error: ApiError): never {
  raiseAlarm(f, tenantId, robotId, kind, error.message);
  throw error;
}

/**
 * Raises an alarm for each newly stored command signed under another profile or MAC key than the robot was
 * registered with (`robot add --profile-digest --command-kid`): its edge runs a profile nobody registered —
 * other torque limits, other keep-out zones — or signs with another key, which the registry exists to catch.
 * The records are stored all the same: they are what the robot did, and refusing them would stop its
 * shipper and lose that evidence. Verdicts from edges that do not say (older ones) are not judged.
 */
function alarmUnregisteredCommands(f: FleetContext, robot: RobotRecord, stored: EdgeAuditRecord[]): void {
  for (const { kind, field, registered } of [
    { kind: 'profile', field: 'cfgDigest', registered: robot.profileDigest },
    { kind: 'command-key', field: 'commandKid', registered: robot.commandKid },
  ] as const) {
    const off = stored.filter((r) => r.verdict[field] !== undefined && r.verdict[field] !== registered);
    if (off.length === 0) continue;
    const first = off[0] as EdgeAuditRecord;
    raiseAlarm(
      f,
      robot.tenantId,
      robot.robotId,
      `unregistered-${kind}`,
      `robot ${robot.robotId}: ${off.length} stored command(s) from record ${first.index} were signed under ` +
        `${field} ${first.verdict[field]}, not the registered ${registered} (stored; re-register the robot if ` +
        'the change was intended)',
    );
  }
}

/**
 * Records must be ascending and contiguous, every verdict must be this robot's, and none may contradict
 * itself (a "signed" verdict beside a failed gate: @pentagate/protocol verdictContradictions).
 */
function checkBatchShape(
  f: FleetContext,
  tenantId: string,
  robotId: string,
  records: EdgeAuditRecord[],
): void {
  records.forEach((r, i) => {
    if (r.verdict.robotId !== robotId) {
      refuse(
        f,
        tenantId,
        robotId,
        'wrong-robot',
        new ApiError(
          'EDGE_CHAIN_BROKEN',
          `record ${r.index} is a verdict of robot ${r.verdict.robotId}, not of ${robotId}`,
        ),
      );
    }
    const contradictions = verdictContradictions(r.verdict);
    if (contradictions.length > 0) {
      refuse(
        f,
        tenantId,
        robotId,
        'contradictory-verdict',
        new ApiError(
          'EDGE_HISTORY_INVALID',
          `robot ${robotId}: record ${r.index} contradicts itself: ${contradictions.join('; ')}; nothing was ` +
            'stored (the edge signs a command only when all five gates pass)',
        ),
      );
    }
    const first = records[0] as EdgeAuditRecord;
    if (r.index !== first.index + i) {
      refuse(
        f,
        tenantId,
        robotId,
        'unordered',
        new ApiError(
          'EDGE_CHAIN_BROKEN',
          `records: expected contiguous ascending indexes from ${first.index}, got ${r.index} at position ${i}`,
        ),
      );
    }
  });
}

export async function ingestEdgeRecords(
  f: FleetContext,
  caller: Caller,
  robotId: string,
  records: EdgeAuditRecord[],
): Promise<EdgeChainAck> {
  const robot = await robotOfCaller(f, caller, robotId);
  const tenantId = caller.tenantId;
  checkBatchShape(f, tenantId, robotId, records);
  const nowMs = f.nowMs();
  const writes: EdgeRecordWrite[] = records.map((record) => {
    const digest = recordDigest(record);
    return {
      index: record.index,
      digest,
      prevDigest: record.prevDigest,
      ...(record.verdict.commandSeq === undefined ? {} : { commandSeq: record.verdict.commandSeq }),
      ...(record.verdict.commandEpoch === undefined ? {} : { commandEpoch: record.verdict.commandEpoch }),
      audit: AuditLog.builder(
        {
          type: EDGE_RECORD_ENTRY,
          tenantId,
          actor: `edge:${robotId}`,
          subjectDigest: digest,
          data: { robotId, record },
        },
        nowMs,
      ),
    };
  });
  const result = await f.store.appendEdgeRecords(tenantId, robotId, writes);
  if (result.status === 'refused') {
    const { refusal, state } = result;
    const details = { acknowledged: state.acknowledged, headDigest: state.headDigest };
    if (refusal.kind === 'gap') {
      refuse(
        f,
        tenantId,
        robotId,
        'gap',
        new ApiError(
          'EDGE_CHAIN_GAP',
          `robot ${robotId}: the batch starts at record ${refusal.gotIndex}, the cloud holds records up to ${refusal.expectedIndex - 1}; resend from ${refusal.expectedIndex}`,
          details,
        ),
      );
    }
    if (refusal.kind === 'history') {
      const position = refusal.index - (records[0] as EdgeAuditRecord).index;
      refuse(
        f,
        tenantId,
        robotId,
        'history',
        new ApiError(
          'EDGE_HISTORY_INVALID',
          `robot ${robotId}: record ${refusal.index} (position ${position} of the batch) breaks the robot's ` +
            `command history: ${refusal.detail}; nothing was stored (the audit verifier would reject the record)`,
          details,
        ),
      );
    }
    refuse(
      f,
      tenantId,
      robotId,
      'fork',
      new ApiError('EDGE_CHAIN_BROKEN', `robot ${robotId}: ${refusal.detail}`, details),
    );
  }
  alarmUnregisteredCommands(f, robot, records.slice(records.length - result.audits.length));
  result.audits.forEach((audit, i) => {
    const record = records[records.length - result.audits.length + i] as EdgeAuditRecord;
    const v = record.verdict;
    f.live.publish(tenantId, {
      type: 'verdict',
      robotId,
      recordIndex: record.index,
      auditIndex: audit.index,
      outcome: v.outcome,
      atMs: v.atMs,
      ...(v.intentId !== undefined ? { intentId: v.intentId } : {}),
      ...(v.commandSeq !== undefined ? { commandSeq: v.commandSeq } : {}),
      ...(v.commandEpoch !== undefined ? { commandEpoch: v.commandEpoch } : {}),
      violations: v.violations,
    });
  });
  return {
    robotId,
    acknowledged: result.state.acknowledged,
    headDigest: result.state.headDigest,
    stored: result.stored,
    duplicates: result.duplicates,
  };
}

export async function edgeChainAck(f: FleetContext, caller: Caller, robotId: string): Promise<EdgeChainAck> {
  await robotOfCaller(f, caller, robotId);
  const state = await f.store.chainState(caller.tenantId, robotId);
  return { robotId, acknowledged: state.acknowledged, headDigest: state.headDigest };
}
