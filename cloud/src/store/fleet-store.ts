/**
 * The fleet's storage, composed on the platform store like the kernel's: the robot registry (each robot
 * of a tenant with its edge credential, command key id, profile digest and firmware manifests), enrolled
 * operator keys, and each robot's shipped audit chain (which outbox records the cloud holds, by index and
 * digest). Every change is one transaction with its audit entry, so the registry and the log never
 * disagree, and the chain check of a batch runs under the robot's chain lock — two uploads of one robot,
 * on any replica, never both extend the chain from the same head.
 */
import type { ConsentQueue } from './consent-queue.js';
import type { ApiKeyRecord, AuditRecord } from './records.js';
import type { AuditEntryBuilder } from './store.js';

export interface RobotRecord {
  tenantId: string;
  robotId: string;
  /** The API key (scope `edge`) the robot's edge uses; bound to this robot only. */
  edgeKeyId: string;
  /** Key id (`kid`) of the HMAC key the edge signs motor commands with. */
  commandKid: string;
  /** SHA-256 of the JCS profile the edge runs (`cfgDigest` of its commands). */
  profileDigest: string;
  /** Vendor-signed firmware manifests (DSSE envelopes) the robot may run. */
  firmwareManifests: unknown[];
  createdAtMs: number;
  retiredAtMs: number | null;
}

export interface OperatorKeyRecord {
  tenantId: string;
  operatorId: string;
  /** Key id of the operator's Ed25519 public key (hex of the first 8 bytes of its SHA-256). */
  kid: string;
  /** Raw Ed25519 public key, base64url. */
  publicKey: string;
  createdAtMs: number;
  retiredAtMs: number | null;
}

/** What the cloud holds of one robot's audit chain. */
export interface EdgeChainState {
  /** Records 0..acknowledged-1 are stored. */
  acknowledged: number;
  /** Digest of record acknowledged-1; SHA-256 of nothing when none is stored. */
  headDigest: string;
}

/** One shipped record, as the store needs it: its place in the chain and its audit entry. */
export interface EdgeRecordWrite {
  index: number;
  /** SHA-256 of the record's JCS bytes. */
  digest: string;
  prevDigest: string;
  /** The record's signed command (verdict commandSeq/commandEpoch), both absent for a veto. */
  commandSeq?: number;
  commandEpoch?: number;
  audit: AuditEntryBuilder;
}

export type EdgeChainRefusal =
  | { kind: 'gap'; expectedIndex: number; gotIndex: number }
  | { kind: 'fork'; index: number; detail: string }
  /** A fresh record whose command breaks the robot's command history (@pentagate/protocol stepCommandHistory). */
  | { kind: 'history'; index: number; detail: string };

export type EdgeAppendResult =
  | { status: 'accepted'; stored: number; duplicates: number; state: EdgeChainState; audits: AuditRecord[] }
  | { status: 'refused'; refusal: EdgeChainRefusal; state: EdgeChainState };

export type AddRobotResult = { added: true; audit: AuditRecord } | { added: false };

export interface FleetStore {
  /** Robot consent requests and the operator tokens relayed for them. */
  readonly consents: ConsentQueue;
  /** Inserts the robot, its edge key and the audit entry together; a robot id already in the tenant adds nothing. */
  addRobot(robot: RobotRecord, edgeKey: ApiKeyRecord, audit: AuditEntryBuilder): Promise<AddRobotResult>;
  getRobot(tenantId: string, robotId: string): Promise<RobotRecord | undefined>;
  listRobots(tenantId: string): Promise<RobotRecord[]>;
  /** Retires an active robot and revokes its edge key with the audit entry; undefined when none is active. */
  retireRobot(
    tenantId: string,
    robotId: string,
    nowMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined>;

  /** Enrols (or replaces) an operator's public key with its audit entry. */
  putOperatorKey(key: OperatorKeyRecord, audit: AuditEntryBuilder): Promise<AuditRecord>;
  listOperatorKeys(tenantId: string): Promise<OperatorKeyRecord[]>;

  chainState(tenantId: string, robotId: string): Promise<EdgeChainState>;
  /**
   * Checks `records` (ascending, contiguous indexes) against the stored chain and, if they continue it,
   * stores the new ones with their audit entries in one transaction. Records already stored with the same
   * digest are duplicates; any other mismatch refuses the whole batch and stores nothing. The new records'
   * commands must continue the robot's command history (the last stored command, kept with the chain
   * head and checked under the same lock), else the batch is refused whole as well.
   */
  appendEdgeRecords(tenantId: string, robotId: string, records: EdgeRecordWrite[]): Promise<EdgeAppendResult>;
}
