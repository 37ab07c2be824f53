/** Shared fixtures for the pentagon tests: the example policy, a custody key, a baseline call. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  TrustStore,
  createEd25519Signer,
  dsseSignStatement,
  generateEd25519,
  jcsDigestHex,
  trustEntryFor,
} from '@pentagate/crypto';
import { PAYLOAD_TYPES } from '@pentagate/protocol';
import type { PentagonCall as ToolCall } from '../../src/pentagon/index.js';
import { type LoadedPolicy, loadPolicy } from '../../src/policy/index.js';
import {
  type CallRecord,
  type LedgerState,
  type PentagonVerdict,
  type ToolCallEvaluationInput,
  evaluateToolCall,
} from '../../src/pentagon/index.js';

export const NOW_MS = 1_760_000_000_000;

export const examplePolicyText = readFileSync(
  fileURLToPath(new URL('../../policies/example.yaml', import.meta.url)),
  'utf8',
);
export const examplePolicy: LoadedPolicy = loadPolicy(examplePolicyText, 'example.yaml');

const custodyKey = generateEd25519();
export const custodySigner = createEd25519Signer(custodyKey.privateKey);
const strangerKey = generateEd25519();
export const strangerSigner = createEd25519Signer(strangerKey.privateKey);
export const trust = TrustStore.fromDocument({ keys: [trustEntryFor(custodyKey.publicKey, 'custody')] });

export function custodyFor(data: unknown, signer = custodySigner, issuedAt = NOW_MS - 1000) {
  return dsseSignStatement(
    PAYLOAD_TYPES.custody,
    { v: 1, dataDigest: jcsDigestHex(data), source: 'erp-export', custodian: 'acme-finance', issuedAt },
    signer,
  );
}

export const agent = { agentId: 'agent-7', lobeName: 'lobe-7', domain: 'FINANCE', tenantId: 'tenant-1' };

/** 1 000 per hour (rule default-hourly), 300 spent, 200 reserved: 500 remain. */
export const ledger: LedgerState = {
  budgetLimit: 1000,
  spentInWindow: 300,
  reservedInWindow: 200,
  windowMs: 3_600_000,
};

export function call(overrides: Partial<ToolCall> = {}): ToolCall {
  return {
    lobe_name: 'lobe-7',
    tool_name: 'crm.update',
    arguments: { customerId: 'c-1001', phone: '+44 20 7946 0958' },
    trigger_prompt: 'Update the phone number of customer c-1001.',
    region: 'EU',
    department: 'finance',
    ...overrides,
  };
}

export function evaluate(
  c: ToolCall,
  extra: Partial<Omit<ToolCallEvaluationInput, 'call'>> = {},
): PentagonVerdict {
  return evaluateToolCall({
    call: c,
    agent,
    policy: examplePolicy,
    ledger,
    history: [],
    trust,
    nowMs: NOW_MS,
    ...extra,
  });
}

/** The history record the platform would store for a verdict. */
export function recordOf(v: PentagonVerdict, toolName: string, atMs: number): CallRecord {
  return {
    fingerprint: v.fingerprint,
    nearFingerprint: v.nearFingerprint,
    atMs,
    approved: v.approved,
    toolName,
    violations: v.violations.map((x) => x.code),
  };
}

export function codes(v: PentagonVerdict): string[] {
  return v.violations.map((x) => x.code);
}
