/** Row mapping of the fleet tables (both dialects; see row-mappers.ts for why numbers go through `num`). */
import { sha256Hex } from '@pentagate/crypto';
import type { CommandHistory, ConsentRequest } from '@pentagate/protocol';
import type { ConsentRequestRecord, ConsentRequestState } from './consent-queue.js';
import type { EdgeChainState, OperatorKeyRecord, RobotRecord } from './fleet-store.js';
import { type Row, num } from './row-mappers.js';

/** headDigest of a robot with no stored record: SHA-256 of nothing, the prevDigest of outbox record 0. */
export const EMPTY_CHAIN_DIGEST = sha256Hex(new Uint8Array(0));

export const EMPTY_CHAIN: EdgeChainState = { acknowledged: 0, headDigest: EMPTY_CHAIN_DIGEST };

function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

export function robotValues(r: RobotRecord): unknown[] {
  return [
    r.tenantId,
    r.robotId,
    r.edgeKeyId,
    r.commandKid,
    r.profileDigest,
    JSON.stringify(r.firmwareManifests),
    r.createdAtMs,
    r.retiredAtMs,
  ];
}

export function toRobot(row: Row): RobotRecord {
  return {
    tenantId: String(row.tenant_id),
    robotId: String(row.robot_id),
    edgeKeyId: String(row.edge_key_id),
    commandKid: String(row.command_kid),
    profileDigest: String(row.profile_digest),
    firmwareManifests: JSON.parse(String(row.firmware_manifests)) as unknown[],
    createdAtMs: num(row.created_at_ms),
    retiredAtMs: numOrNull(row.retired_at_ms),
  };
}

export function toOperatorKey(row: Row): OperatorKeyRecord {
  return {
    tenantId: String(row.tenant_id),
    operatorId: String(row.operator_id),
    kid: String(row.kid),
    publicKey: String(row.public_key),
    createdAtMs: num(row.created_at_ms),
    retiredAtMs: numOrNull(row.retired_at_ms),
  };
}

export function toChainState(row: Row | undefined): EdgeChainState {
  return row ? { acknowledged: num(row.acknowledged), headDigest: String(row.head_digest) } : EMPTY_CHAIN;
}

/** The last stored command of a chain row (fleet migration 3's columns); empty before the first command. */
export function toCommandHistory(row: Row | undefined): CommandHistory {
  const lastSeq = numOrNull(row?.last_command_seq);
  const lastEpoch = numOrNull(row?.last_command_epoch);
  return {
    ...(lastSeq === null ? {} : { lastSeq }),
    ...(lastEpoch === null ? {} : { lastEpoch }),
  };
}

export function consentRequestValues(r: ConsentRequestRecord): unknown[] {
  return [
    r.tenantId,
    r.robotId,
    r.intentDigest,
    JSON.stringify(r.request),
    r.state,
    r.deadlineMs,
    r.createdAtMs,
  ];
}

export function toConsentRequest(row: Row): ConsentRequestRecord {
  return {
    tenantId: String(row.tenant_id),
    robotId: String(row.robot_id),
    intentDigest: String(row.intent_digest),
    request: JSON.parse(String(row.request)) as ConsentRequest,
    state: String(row.state) as ConsentRequestState,
    deadlineMs: num(row.deadline_ms),
    createdAtMs: num(row.created_at_ms),
    operatorId: row.operator_id === null || row.operator_id === undefined ? null : String(row.operator_id),
    grantedAtMs: numOrNull(row.granted_at_ms),
    deliveredAtMs: numOrNull(row.delivered_at_ms),
  };
}
