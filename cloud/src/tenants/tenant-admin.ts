/**
 * Tenant and API-key administration, shared by the CLI (`pentagate cloud tenant|apikey …`). Each change is
 * also an audit entry of type `key` or `tenant`, so the log shows who could act when.
 */
import { InvalidInputError, NameSchema, RegionSchema, conforms, newId } from '@pentagate/protocol';
import { AuditLog } from '../audit/audit-log.js';
import { API_KEY_SCOPES, type ApiKeyRecord, type ApiKeyScope, type TenantRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { type IssuedApiKey, type KeyBinding, newApiKey } from './api-key.js';

export async function createTenant(
  store: Store,
  name: string,
  nowMs: number = Date.now(),
): Promise<TenantRecord> {
  if (!conforms(NameSchema, name)) {
    throw new InvalidInputError(
      `tenant name: expected 1..128 printable characters, got ${JSON.stringify(name)}`,
    );
  }
  const tenant: TenantRecord = { id: newId('ten', nowMs), name, createdAtMs: nowMs };
  await store.createTenant(tenant);
  await store.appendAudit(
    AuditLog.builder(
      { type: 'tenant', tenantId: tenant.id, actor: 'system', data: { action: 'create', name } },
      nowMs,
    ),
  );
  return tenant;
}

export function parseScope(text: string): ApiKeyScope {
  if ((API_KEY_SCOPES as readonly string[]).includes(text)) return text as ApiKeyScope;
  throw new InvalidInputError(
    `scope: expected one of ${API_KEY_SCOPES.join(', ')}, got ${JSON.stringify(text)}`,
  );
}

async function requireTenant(store: Store, tenantId: string): Promise<TenantRecord> {
  const tenant = await store.getTenant(tenantId);
  if (!tenant)
    throw new InvalidInputError(`tenant: expected an existing tenant id, got ${JSON.stringify(tenantId)}`);
  return tenant;
}

/** A binding uses the same forms as the wire (RegionSchema, NameSchema), so a claim can ever match it. */
function checkBinding(scope: ApiKeyScope, binding: KeyBinding): void {
  if (binding.region !== undefined && !conforms(RegionSchema, binding.region)) {
    throw new InvalidInputError(
      `region: expected letters, digits and ._- (e.g. EU, US-CA), 1..64 characters, got ${JSON.stringify(binding.region)}`,
    );
  }
  if (binding.department !== undefined && !conforms(NameSchema, binding.department)) {
    throw new InvalidInputError(
      `department: expected 1..128 printable characters, got ${JSON.stringify(binding.department)}`,
    );
  }
  if (binding.agent === undefined) return;
  // only agent keys act as an agent; an admin key is the tenant's own and stays unbound
  if (scope !== 'agent') {
    throw new InvalidInputError(`agent: only a key of scope agent is bound to an agent, got scope ${scope}`);
  }
  if (!conforms(NameSchema, binding.agent)) {
    throw new InvalidInputError(
      `agent: expected an agent_name of 1..128 printable characters, got ${JSON.stringify(binding.agent)}`,
    );
  }
}

export async function issueApiKey(
  store: Store,
  tenantId: string,
  scope: ApiKeyScope,
  nowMs: number = Date.now(),
  binding: KeyBinding = {},
): Promise<IssuedApiKey> {
  await requireTenant(store, tenantId);
  checkBinding(scope, binding);
  const issued = newApiKey(tenantId, scope, nowMs, binding);
  await store.insertApiKey(issued.record);
  await store.appendAudit(
    AuditLog.builder(
      {
        type: 'key',
        tenantId,
        actor: 'system',
        data: { action: 'issue', keyId: issued.record.id, scope, ...binding },
      },
      nowMs,
    ),
  );
  return issued;
}

export async function revokeApiKey(
  store: Store,
  tenantId: string,
  keyId: string,
  nowMs: number = Date.now(),
): Promise<void> {
  await requireTenant(store, tenantId);
  if (!(await store.revokeApiKey(tenantId, keyId, nowMs))) {
    throw new InvalidInputError(
      `api key: expected an unrevoked key of tenant ${tenantId}, got ${JSON.stringify(keyId)}`,
    );
  }
  await store.appendAudit(
    AuditLog.builder({ type: 'key', tenantId, actor: 'system', data: { action: 'revoke', keyId } }, nowMs),
  );
}

export async function listApiKeys(store: Store, tenantId: string): Promise<ApiKeyRecord[]> {
  await requireTenant(store, tenantId);
  return store.listApiKeys(tenantId);
}
