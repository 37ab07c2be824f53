/**
 * Payload fields the kernel's gates read beside the pentagon's: `tool` (every tool rule of the policy, for
 * tool:invoke, which must name it), `spendAmount` (ECONOMY: what the budget
 * reserves, every type but ledger:write), `callDepth` (ECONOMY: the recursion limit), `region` and
 * `department` (INVARIANT: jurisdiction claims) and, for data:export, `recordCount` and `personalData`
 * (CONSENT: a bulk or personal export waits for an operator). A gate that read such a field of the wrong JSON type
 * as absent would pass the action — the string "5000" as no spend and no bulk, "true" as no personal data —
 * so a field that is given must have its documented type, or the proposal is refused: fail closed.
 */
import { type ActionType, conforms, ToolNameSchema } from '@pentagate/protocol';
import { isSpend } from '../pentagon/tiers/spend-arguments.js';
import type { KernelFinding } from './kernel-violations.js';

interface TypedField {
  name: string;
  /** The action types whose gates read the field. */
  appliesTo: (type: ActionType) => boolean;
  /** Whether those types need it (else only a field that is given is checked). */
  required?: boolean;
  valid: (value: unknown) => boolean;
  expected: string;
  remediation: string;
}

const TYPED_FIELDS: readonly TypedField[] = [
  {
    name: 'tool',
    appliesTo: (type) => type === 'tool:invoke',
    // The policy's tool rules (INVARIANT: denied tools; CONSENT; holds) match this name. Anything else —
    // `["shell.exec"]`, which an executor's `tools[payload.tool]` reads as "shell.exec", or ` shell.exec` —
    // would be judged as the bare type `tool:invoke`, which no tool rule names.
    required: true,
    valid: (v) => conforms(ToolNameSchema, v),
    expected: 'a tool name (letters, digits and ._:/-, starting with a letter or digit, at most 128)',
    remediation: 'name the tool to run in payload.tool, as the policy names it (e.g. payments.transfer)',
  },
  {
    name: 'spendAmount',
    appliesTo: (type) => type !== 'ledger:write', // its spend is payload.amount (ledgerWriteFindings)
    valid: isSpend,
    expected: 'a finite number >= 0',
    remediation:
      'send payload.spendAmount as a number >= 0 in the budget unit, or leave it out when the action spends nothing',
  },
  {
    name: 'callDepth',
    appliesTo: () => true, // ECONOMY: the metabolic gate's recursion limit
    valid: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
    expected: 'an integer >= 0',
    remediation:
      'send payload.callDepth as how deep in a chain of agent calls this action is, or leave it out',
  },
  ...(['region', 'department'] as const).map((name) => ({
    name,
    appliesTo: () => true, // INVARIANT: a jurisdiction claim, checked against the API key's binding
    valid: (v: unknown) => typeof v === 'string' && v.length > 0,
    expected: 'a non-empty string',
    remediation: `send payload.${name} as a string, or leave it out: the API key's binding is the jurisdiction`,
  })),
  {
    name: 'recordCount',
    appliesTo: (type) => type === 'data:export',
    valid: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
    expected: 'an integer >= 0',
    remediation: 'send payload.recordCount as the number of records exported, or leave it out',
  },
  {
    name: 'personalData',
    appliesTo: (type) => type === 'data:export',
    valid: (v) => typeof v === 'boolean',
    expected: 'true or false',
    remediation:
      'send payload.personalData as true or false, or leave it out when no personal data is exported',
  },
];

/**
 * Where an action type's rules read its payload fields: every value given for a name (none when absent), and
 * the path the messages name. A kernel action reads its payload; a `tool:invoke` whose tool names an action
 * type (action-rules.ts) reads that type's fields from the tool's arguments, at the payload's top level (the
 * kernel's flat form) and in its `arguments` (the agent routes' form), each copy checked.
 */
export interface FieldSource {
  read: (name: string) => unknown[];
  where: string;
}

/** A payload as the source of its own fields. */
export function payloadSource(payload: Record<string, unknown>): FieldSource {
  return { read: (name) => (Object.hasOwn(payload, name) ? [payload[name]] : []), where: 'payload' };
}

/**
 * The fields of `type` read from `source` with another type than documented. `checked`: a type whose
 * fields this action's own payload check already covered (the tool:invoke a tool-named type came as),
 * so that each field is checked once, in the place its own gate reads it.
 */
export function payloadFieldFindings(
  type: ActionType,
  source: FieldSource,
  checked?: ActionType,
): KernelFinding[] {
  const out: KernelFinding[] = [];
  for (const field of TYPED_FIELDS) {
    if (!field.appliesTo(type) || (checked !== undefined && field.appliesTo(checked))) continue;
    const values = source.read(field.name);
    if (!field.required && values.length === 0) continue;
    const bad = values.length === 0 ? [undefined] : values.filter((v) => !field.valid(v));
    for (const value of bad) {
      out.push({
        code: 'INVARIANT.PAYLOAD_INVALID',
        message: `${type} needs ${source.where}.${field.name}${field.required ? '' : ', when given,'} as ${field.expected}, got ${JSON.stringify(value) ?? 'nothing'}`,
        remediation: field.remediation,
      });
    }
  }
  return out;
}
