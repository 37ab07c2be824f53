/**
 * The robot registry: the robots of a tenant, each with its edge credential (an API key of scope `edge`
 * bound to that robot), the key id of its motor-command key, the digest of the profile it runs and the
 * vendor-signed firmware manifests it may run. Every change is one store transaction with its audit entry
 * (`robot` type), so the log says which robot could ship records, and from when to when.
 */
import {
  conforms,
  DsseEnvelopeSchema,
  InvalidInputError,
  RobotIdSchema,
  Sha256HexSchema,
} from '@pentagate/protocol';
import { AuditLog } from '../audit/audit-log.js';
import type { FleetStore, RobotRecord } from '../store/fleet-store.js';
import type { Store } from '../store/store.js';
import { type IssuedApiKey, newApiKey } from '../tenants/api-key.js';

export interface RobotRegistration {
  tenantId: string;
  robotId: string;
  commandKid: string;
  profileDigest: string;
  firmwareManifests?: unknown[];
}

export interface AddedRobot {
  robot: RobotRecord;
  /** The edge's API key: shown once, stored only as its SHA-256. */
  edgeKey: IssuedApiKey;
  auditIndex: number;
}

const KID = /^[A-Za-z0-9._:-]{1,128}$/;

function checkRegistration(r: RobotRegistration): void {
  if (!conforms(RobotIdSchema, r.robotId)) {
    throw new InvalidInputError(
      `robot id: expected 1..64 characters [A-Za-z0-9._-] starting with a letter or digit, got ${JSON.stringify(r.robotId)}`,
    );
  }
  if (!KID.test(r.commandKid)) {
    throw new InvalidInputError(
      `command key id: expected 1..128 characters [A-Za-z0-9._:-], got ${JSON.stringify(r.commandKid)}`,
    );
  }
  if (!conforms(Sha256HexSchema, r.profileDigest)) {
    throw new InvalidInputError(
      `profile digest: expected 64 lower-case hex characters, got ${JSON.stringify(r.profileDigest)}`,
    );
  }
  (r.firmwareManifests ?? []).forEach((m, i) => {
    if (!conforms(DsseEnvelopeSchema, m)) {
      throw new InvalidInputError(
        `firmware manifest ${i + 1}: expected a DSSE envelope (from \`pentagate firmware sign\`)`,
      );
    }
  });
}

async function requireTenant(store: Store, tenantId: string): Promise<void> {
  if (!(await store.getTenant(tenantId))) {
    throw new InvalidInputError(`tenant: expected an existing tenant id, got ${JSON.stringify(tenantId)}`);
  }
}

export async function addRobot(
  store: Store,
  fleet: FleetStore,
  registration: RobotRegistration,
  nowMs: number = Date.now(),
): Promise<AddedRobot> {
  checkRegistration(registration);
  await requireTenant(store, registration.tenantId);
  const edgeKey = newApiKey(registration.tenantId, 'edge', nowMs);
  const robot: RobotRecord = {
    tenantId: registration.tenantId,
    robotId: registration.robotId,
    edgeKeyId: edgeKey.record.id,
    commandKid: registration.commandKid,
    profileDigest: registration.profileDigest,
    firmwareManifests: registration.firmwareManifests ?? [],
    createdAtMs: nowMs,
    retiredAtMs: null,
  };
  const result = await fleet.addRobot(
    robot,
    edgeKey.record,
    AuditLog.builder(
      {
        type: 'robot',
        tenantId: robot.tenantId,
        actor: 'system',
        data: {
          action: 'add',
          robotId: robot.robotId,
          edgeKeyId: robot.edgeKeyId,
          commandKid: robot.commandKid,
          profileDigest: robot.profileDigest,
          firmwareManifests: robot.firmwareManifests.length,
        },
      },
      nowMs,
    ),
  );
  if (!result.added) {
    throw new InvalidInputError(
      `robot ${registration.robotId}: already registered in tenant ${registration.tenantId} (retired robots keep their id)`,
    );
  }
  return { robot, edgeKey, auditIndex: result.audit.index };
}

export async function listRobots(store: Store, fleet: FleetStore, tenantId: string): Promise<RobotRecord[]> {
  await requireTenant(store, tenantId);
  return fleet.listRobots(tenantId);
}

export async function retireRobot(
  store: Store,
  fleet: FleetStore,
  tenantId: string,
  robotId: string,
  nowMs: number = Date.now(),
): Promise<number> {
  await requireTenant(store, tenantId);
  const audit = await fleet.retireRobot(
    tenantId,
    robotId,
    nowMs,
    AuditLog.builder(
      { type: 'robot', tenantId, actor: 'system', data: { action: 'retire', robotId } },
      nowMs,
    ),
  );
  if (!audit) {
    throw new InvalidInputError(
      `robot: expected an active robot of tenant ${tenantId}, got ${JSON.stringify(robotId)}`,
    );
  }
  return audit.index;
}
