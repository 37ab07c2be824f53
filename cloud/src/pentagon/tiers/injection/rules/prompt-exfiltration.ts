/**
 * System prompt exfiltration (OWASP LLM07:2025 System Prompt Leakage; Perez & Ribeiro 2022 "prompt
 * leaking"): requests to reveal, repeat or transform the instructions that precede the user input.
 */
import { gap, type InjectionRule, NATIVE, rule } from './rule.js';

export const PROMPT_EXFILTRATION_RULES: readonly InjectionRule[] = [
  rule(
    'exfil-prompt.reveal',
    'prompt-exfiltration',
    0.7,
    `\\b(?:reveal|show|print|display|output|repeat|recite|tell me|give me|leak|dump|disclose|write out|spell out|paste|share)\\b${gap(2)}\\s(?:your|the|its|my|this|full|entire|complete|exact|verbatim|original)${gap(2)}\\s(?:system prompt|system message|system instructions|initial (?:prompt|instructions)|hidden (?:prompt|instructions)|original (?:prompt|instructions)|pre-?prompt|developer (?:message|instructions)|secret instructions|confidential instructions)\\b`,
    'asks for the hidden system prompt',
  ),
  rule(
    'exfil-prompt.your-instructions',
    'prompt-exfiltration',
    0.5,
    `\\b(?:what (?:are|were)|reveal|print|repeat|show me|list|tell me)\\b\\s(?:your|all your|all of your)\\s(?:exact\\s|original\\s|initial\\s|hidden\\s|secret\\s|full\\s)?(?:instructions|rules|guidelines|directives|configuration|prompt)\\b`,
    'asks the model to state its own instructions',
  ),
  rule(
    'exfil-prompt.repeat-above',
    'prompt-exfiltration',
    0.6,
    `\\b(?:repeat|print|output|copy|echo|reproduce)\\b${gap(4)}\\s(?:text|words|everything|content|instructions|lines|messages?)\\s(?:above|before this|preceding|prior to this)|\\b(?:starting|beginning) with\\s(?:the words?\\s)?["'“]?you are\\b`,
    'asks to repeat the text that precedes the user input',
  ),
  rule(
    'exfil-prompt.transform-above',
    'prompt-exfiltration',
    0.3,
    `\\b(?:translate|summari[sz]e|rewrite|paraphrase)\\b${gap(3)}\\s(?:text|words|everything|content|instructions|lines|messages?)\\s(?:above|before this|preceding|prior to this)`,
    'asks to transform the text that precedes the user input',
  ),
  rule(
    'exfil-prompt.including-instructions',
    'prompt-exfiltration',
    0.3,
    '\\b(?:including|especially|along with|together with)\\s(?:the\\s|any\\s|your\\s)?(?:instructions|system prompt|system message|rules you were given|hidden text|setup text)\\b',
    'asks to include the instructions in an output',
  ),
  rule(
    'exfil-prompt.native',
    'prompt-exfiltration',
    0.7,
    '(?:muestra|revela|imprime|dime)\\s(?:tu|el|las)\\s(?:prompt|mensaje|instrucciones)\\s(?:del|de|de tu)\\s?sistema|(?:affiche|montre|révèle|donne-moi)[sz]?\\s(?:ton|votre|le|tes|vos)\\s(?:prompt|invite|instructions)\\s(?:système|systeme|initiales)|(?:zeige?|gib|verrate)\\s(?:mir\\s)?(?:deinen|den|deine)\\s(?:system-?prompt|systemanweisungen|anweisungen)|(?:显示|输出|告诉我|打印|泄露)(?:一下)?(?:你的)?(?:系统提示|系统指令|初始指令|系统消息)|(?:покажи|выведи|раскрой)\\s(?:свой\\s|свои\\s)?(?:системный\\s)?(?:промпт|системные инструкции|инструкции)|システムプロンプトを(?:表示|教えて|出力)',
    'asks for the system prompt (es/fr/de/zh/ru/ja)',
    NATIVE,
  ),
];
