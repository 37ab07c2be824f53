/**
 * Indirect injection (OWASP LLM01:2025 indirect; Greshake et al. 2023): text inside data that addresses
 * the model directly, hidden HTML comments that speak to it, and urgent imperatives aimed at the reader.
 */
import { type InjectionRule, rule } from './rule.js';

export const INDIRECT_ADDRESS_RULES: readonly InjectionRule[] = [
  rule(
    'indirect.address-the-ai',
    'indirect-address',
    0.55,
    '\\b(?:note|message|instructions?|attention|notice|reminder|important)\\s(?:to|for)\\s(?:the\\s|any\\s|all\\s)?(?:ai|llm|assistant|language model|chatbot|agent|gpt|model|bot)s?\\b|\\bif you are an?\\s(?:ai|llm|language model|assistant|chatbot|gpt|agent|bot)\\b|\\b(?:ai|llm|assistant|agent|model)s?\\s(?:reading|processing|summari[sz]ing|parsing) this\\b|\\bdear (?:ai|assistant|llm|chatbot|agent)\\b|(?:^|[\\s(<\\[!-])(?:ai|llm)(?:\\s(?:agent|assistant|model|system))?\\s?:',
    'text inside data that addresses the AI directly',
  ),
  rule(
    'indirect.address-any-reader',
    'indirect-address',
    0.55,
    '\\b(?:whichever|whatever|any|every|each)\\s(?:ai|llm|assistant|language model|chatbot|agent|gpt|model|bot)s?\\s(?:that\\s|who\\s)?(?:reads?|is reading|processes|parses|sees|summari[sz]es|ingests) (?:this|these|it)\\b',
    'text inside data that addresses whatever model happens to read it',
  ),
  rule(
    'indirect.hidden-comment',
    'indirect-address',
    0.5,
    '<!--[^>]{0,400}?\\b(?:ai|assistant|instruction|ignore|agent|model|prompt)\\b[^>]{0,400}?-->',
    'an HTML comment (invisible when rendered) that speaks to the model',
  ),
  rule(
    'indirect.urgent-imperative',
    'indirect-address',
    0.3,
    '\\b(?:important|urgent|critical|attention|warning)\\s?[:!]+\\s(?:\\S+\\s){0,3}?(?:you must|you need to|you should|immediately|assistant|ai\\b)',
    'an urgent imperative aimed at the reader',
  ),
];
