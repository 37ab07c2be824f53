/**
 * Delimiter and chat-template smuggling: control tokens, role tags, forged role lines and fake
 * boundaries that make data look like a new system or assistant turn.
 */
import { type InjectionRule, rule } from './rule.js';

export const DELIMITER_SMUGGLING_RULES: readonly InjectionRule[] = [
  rule(
    'delimiter.chat-template',
    'delimiter-smuggling',
    0.7,
    '<\\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\\|>|\\[/?inst\\]|<</?sys>>|<start_of_turn>|<end_of_turn>',
    'chat-template control tokens inside data',
  ),
  rule(
    'delimiter.role-tag',
    'delimiter-smuggling',
    0.45,
    '</?(?:system|assistant|developer|system_prompt|instructions)>',
    'a role tag inside data',
  ),
  rule(
    'delimiter.role-switch',
    'delimiter-smuggling',
    0.55,
    '</(?:user|human|input|document|data)>\\s?<(?:system|assistant|developer|instructions)>|"role"\\s?:\\s?"(?:system|developer)"',
    'closes the user turn and opens a system turn, or forges a system chat message',
  ),
  rule(
    'delimiter.role-line',
    'delimiter-smuggling',
    0.35,
    '(?:^|\\n)(?:#{1,4}\\s?|\\*\\*)?(?:system|assistant|developer|admin|root)(?:\\s(?:message|prompt|override|note))?\\s?(?:\\*\\*)?\\s?:(?:\\*\\*)?',
    'a line that starts like a system or assistant turn',
  ),
  rule(
    'delimiter.role-line-directive',
    'delimiter-smuggling',
    0.3,
    '(?:^|\\n|[.!]\\s)(?:#{1,4}\\s?|\\*\\*)?(?:system|assistant|developer|admin|root)(?:\\s(?:message|prompt|override|note))?\\s?(?:\\*\\*)?\\s?:(?:\\*\\*)?[^\\n]{0,120}?\\b(?:now|must|disabled|enabled|allowed|approve|approved|unlimited|grant|proceed|verified|ignore|comply)\\b',
    'a fake system or assistant turn that changes a rule',
  ),
  rule(
    'delimiter.fake-boundary',
    'delimiter-smuggling',
    0.4,
    '\\b(?:end|begin|start) of (?:the\\s)?(?:user input|user message|user prompt|system prompt|instructions|context|conversation|untrusted (?:input|content|data))\\b',
    'a fake end-of-input or start-of-instructions marker',
  ),
  // Only from the first character of a run of banner characters: a match's run always ends where the
  // run ends (a blank or a letter follows), so a match from inside a run means one from its start, which
  // is leftmost and is the one reported. Without the look-behind each later start of a long run (a
  // Markdown table rule, 64 KiB of dashes) was tried again: quadratic, seconds for one field.
  rule(
    'delimiter.banner',
    'delimiter-smuggling',
    0.3,
    '(?<![-=#*_])[-=#*_]{3,}\\s?(?:end|begin|new|system|instructions?)\\b',
    'a banner line that opens or closes a section',
  ),
];
