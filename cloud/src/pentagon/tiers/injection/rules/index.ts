/**
 * The built-in prompt-injection rules: deterministic, explainable patterns with weights, one file per
 * attack family. Categories follow OWASP LLM01:2025 (direct and indirect prompt injection) and the attack
 * families of published benchmarks (BIPIA, Yi et al. 2023, arXiv:2312.14197; CyberSecEval
 * prompt-injection incl. multilingual, Meta PurpleLlama).
 *
 * The order below is the order rules run and findings are reported in; it is pinned by
 * cloud/test/pentagon/injection-rules-table.test.ts.
 */
import { DATA_EXFILTRATION_RULES } from './data-exfiltration.js';
import { DELIMITER_SMUGGLING_RULES } from './delimiter-smuggling.js';
import { ENCODING_SMUGGLING_RULES } from './encoding-smuggling.js';
import { INDIRECT_ADDRESS_RULES } from './indirect-address.js';
import { INSTRUCTION_OVERRIDE_RULES } from './instruction-override.js';
import { NATIVE_INSTRUCTION_OVERRIDE_RULES } from './instruction-override-native.js';
import { PROMPT_EXFILTRATION_RULES } from './prompt-exfiltration.js';
import type { InjectionRule } from './rule.js';
import { ROLE_HIJACK_RULES } from './role-hijack.js';
import { TOOL_ABUSE_RULES } from './tool-abuse.js';

export type { InjectionCategory, InjectionRule, TextView } from './rule.js';

export const INJECTION_RULES: readonly InjectionRule[] = [
  ...INSTRUCTION_OVERRIDE_RULES,
  ...NATIVE_INSTRUCTION_OVERRIDE_RULES,
  ...ROLE_HIJACK_RULES,
  ...PROMPT_EXFILTRATION_RULES,
  ...DELIMITER_SMUGGLING_RULES,
  ...ENCODING_SMUGGLING_RULES,
  ...TOOL_ABUSE_RULES,
  ...DATA_EXFILTRATION_RULES,
  ...INDIRECT_ADDRESS_RULES,
];
