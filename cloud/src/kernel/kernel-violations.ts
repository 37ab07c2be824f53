/**
 * Violation codes the kernel adds to the pentagon's (shared/protocol agentgate/violation-codes.ts) for
 * rules that depend on the ActionType or the proposal's context. Same shape, same stable-code promise.
 */
import type { Violation, ViolationCodeInfo } from '@pentagate/protocol';
import type { Effect } from '../pentagon/deny-overrides.js';
import { oneLine } from '../pentagon/one-line.js';
import { effectOf } from '../pentagon/violation.js';

export const KERNEL_VIOLATION_CODES = {
  'INVARIANT.PAYLOAD_INVALID': {
    vertex: 'INVARIANT',
    meaning:
      'the payload lacks a field the action type needs (ledger:write: amount > 0 and recipient; tool:invoke: a tool name in tool), or gives spendAmount, callDepth, region, department, recordCount or personalData with another type than documented',
    effect: 'deny',
  },
  'CONSENT.LOW_CONFIDENCE': {
    vertex: 'CONSENT',
    meaning:
      "the agent's confidence (confidenceScore, agent_confidence or confidence) is below the kernel's threshold, so a human decides",
    effect: 'require-human',
  },
  'CONSENT.VAULT_WRITE': {
    vertex: 'CONSENT',
    meaning: 'a write to secret storage always waits for an operator (REQUIRE_HUMAN)',
    effect: 'require-human',
  },
  'CONSENT.PERSONAL_DATA_EXPORT': {
    vertex: 'CONSENT',
    meaning: 'an export of personal or bulk data waits for an operator (REQUIRE_HUMAN)',
    effect: 'require-human',
  },
  'CONSENT.POLICY_UPDATE_HOLD': {
    vertex: 'CONSENT',
    meaning: 'a policy change is held for the veto window before it may execute (HELD_FOR_VETO)',
    effect: 'hold',
  },
} as const satisfies Record<string, ViolationCodeInfo>;

export type KernelViolationCode = keyof typeof KERNEL_VIOLATION_CODES;

/** A kernel rule outcome before combining. */
export interface KernelFinding {
  code: KernelViolationCode;
  message: string;
  remediation: string;
}

/** The effect of a kernel code, else of a pentagon code (the pentagon's look-up: unknown codes deny). */
export function effectOfCode(code: string): Effect {
  return KERNEL_VIOLATION_CODES[code as KernelViolationCode]?.effect ?? effectOf(code);
}

export function kernelViolation(f: KernelFinding): Violation {
  return {
    code: f.code,
    vertex: KERNEL_VIOLATION_CODES[f.code].vertex,
    message: oneLine(`${f.code}: ${f.message}`, 2048),
  };
}
