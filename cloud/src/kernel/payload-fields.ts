/**
 * Payload fields the kernel's gates read beside the pentagon's: `tool` (every tool rule of the policy, for
 * tool:invoke, which must name it), `spendAmount` (ECONOMY: what the budget
 * reserves, every type but ledger:write), `callDepth` (ECONOMY: the recursion limit), `region` and
 * `department` (INVARIANT: jurisdiction claims) and, for data:export, `recordCount` and `personalData`
 * (CONSENT: a bulk or personal export waits for an operator). A gate that read such a field of the wrong JSON type
 * as absent would pass the action — the string "5000" as no spend and no bulk, "true" as no personal data —
 * so a field that is given must have its documented type, or the proposal is refused: fail closed.
 */
import { type ActionType, conforms, type ProposedAction, ToolNameSchema } from '@pentagate/protocol';
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

export function payloadFieldFindings(action: ProposedAction): KernelFinding[] {
  const out: KernelFinding[] = [];
  for (const field of TYPED_FIELDS) {
    if (!field.appliesTo(action.type)) continue;
    if (!field.required && !Object.hasOwn(action.payload, field.name)) continue;
    const value = action.payload[field.name];
    if (field.valid(value)) continue;
    out.push({
      code: 'INVARIANT.PAYLOAD_INVALID',
      message: `${action.type} needs payload.${field.name}${field.required ? '' : ', when given,'} as ${field.expected}, got ${JSON.stringify(value) ?? 'nothing'}`,
      remediation: field.remediation,
    });
  }
  return out;
}
