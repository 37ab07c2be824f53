/**
 * Encoding smuggling, textual cues only: a request to decode text and obey it. Invisible characters,
 * tag characters and decoded payloads are scored by scan.ts, which sees the text before normalisation.
 */
import { gap, type InjectionRule, rule } from './rule.js';

export const ENCODING_SMUGGLING_RULES: readonly InjectionRule[] = [
  rule(
    'encoding.decode-and-follow',
    'encoding-smuggling',
    0.55,
    `\\b(?:decode|decrypt|translate|unscramble|reverse|rot13|base64-?decode)\\b${gap(8)}\\s(?:and then|and|then)\\s(?:follow|execute|run|obey|do|carry out|perform|act on)\\b`,
    'asks the model to decode text and obey it',
  ),
];
