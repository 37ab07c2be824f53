/**
 * Instruction override in English: text that tells the model to drop, outrank or replace the
 * instructions it was given (OWASP LLM01:2025 direct injection; Perez & Ribeiro 2022 "goal hijacking"),
 * including the spaced-out form on the squashed view.
 */
import { gap, type InjectionRule, rule } from './rule.js';

const OVERRIDE_VERBS =
  '(?:ignore|disregard|forget|bypass|override|overrule|set aside|throw out|discard|abandon)';
const INSTRUCTION_NOUNS =
  '(?:instructions?|directives?|rules|guidelines|prompts?|guardrails|constraints|restrictions|programming|system message|orders|commands)';

export const INSTRUCTION_OVERRIDE_RULES: readonly InjectionRule[] = [
  rule(
    'override.ignore-instructions',
    'instruction-override',
    0.8,
    `\\b${OVERRIDE_VERBS}\\b${gap(5)}\\s(?:previous|prior|above|earlier|preceding|former|initial|original|all|any|your|system|existing|current|old|safety)\\b${gap(3)}\\s${INSTRUCTION_NOUNS}\\b`,
    'tells the model to drop the instructions it was given',
  ),
  rule(
    'override.ignore-above',
    'instruction-override',
    0.7,
    `\\b(?:ignore|disregard|forget)\\b\\s(?:all\\s|everything\\s)?(?:of\\s)?(?:the\\s|what\\s)?(?:above|before|previously said|said before|you (?:were|have been) told|you know)\\b`,
    'tells the model to forget everything before',
  ),
  rule(
    'override.forget-given',
    'instruction-override',
    0.75,
    `\\b${OVERRIDE_VERBS}\\b${gap(2)}\\s${INSTRUCTION_NOUNS}\\s(?:you (?:were|have been) given|given (?:to you|earlier|before)|from (?:before|earlier|your (?:operator|developer|creator)))`,
    'tells the model to drop the rules it was given',
  ),
  rule(
    'override.outranks-operator',
    'instruction-override',
    0.55,
    '\\b(?:over|above|before)\\s(?:anything|everything|whatever|what|all)\\s(?:your|the)\\s(?:operator|developer|system|administrator|admin|creator)s?\\s(?:said|says|told|wrote|instructed|asked)',
    'claims to outrank what the operator said',
  ),
  rule(
    'override.new-instructions',
    'instruction-override',
    0.55,
    `\\b(?:new|updated|real|actual|revised|true|secret|hidden)\\s(?:system\\s)?(?:instructions?|directives?|task|orders|objective|mission)\\b\\s?(?::|are|is)`,
    'announces replacement instructions',
  ),
  rule(
    'override.from-now-on',
    'instruction-override',
    0.5,
    `\\b(?:from now on|henceforth|for the rest of this conversation|starting now)\\b,?\\s(?:you|your|always|never|only|respond|answer|reply|act)\\b`,
    'redefines behaviour for the rest of the session',
  ),
  rule(
    'override.priority-claim',
    'instruction-override',
    0.45,
    `\\b(?:this|these|the following)\\s(?:instructions?|message|directive|note)\\s(?:takes?|has|have)\\s(?:priority|precedence)|\\boverrides?\\s(?:all\\s)?(?:other|previous|prior|earlier)\\s${INSTRUCTION_NOUNS}`,
    'claims precedence over the operator',
  ),
  rule(
    'override.do-not-follow',
    'instruction-override',
    0.6,
    `\\b(?:do not|don't|stop|no longer)\\s(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)? to|comply(?:ing)? with)\\b${gap(2)}\\s(?:your|the|previous|prior|original|system|developer|operator)${gap(2)}\\s?${INSTRUCTION_NOUNS}?`,
    'tells the model to stop obeying its operator',
  ),
  rule(
    'override.spaced',
    'instruction-override',
    0.8,
    '(?:ignore|disregard|forget)(?:all|any|the|your)?(?:previous|prior|above|earlier)(?:instructions?|rules|prompts?|directions)',
    'an override phrase hidden by spacing or punctuation between letters',
    ['squashed'],
  ),
];
