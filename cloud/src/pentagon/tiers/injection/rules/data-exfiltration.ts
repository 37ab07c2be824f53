/**
 * Data exfiltration (Greshake et al. 2023): secrets sent to outside destinations, collector hosts, and
 * data carried in URLs or markdown images that leak when rendered.
 */
import { gap, type InjectionRule, rule } from './rule.js';

export const DATA_EXFILTRATION_RULES: readonly InjectionRule[] = [
  rule(
    'exfil-data.secrets',
    'data-exfiltration',
    0.4,
    `\\b(?:send|post|upload|forward|email|e-mail|transmit|leak|copy|include|append|attach|share|reveal|print|output|list|dump)\\b${gap(5)}\\s(?:api[\\s_-]?keys?|secrets?|passwords?|passwds?|credentials|access tokens?|bearer tokens?|private keys?|ssh keys?|env(?:ironment)? variables|\\.env|session cookies?|cookies|conversation history|chat history|credit card numbers?|social security numbers?)\\b`,
    'asks to send or reveal secrets',
  ),
  rule(
    'exfil-data.external-destination',
    'data-exfiltration',
    0.35,
    `\\b(?:send|post|upload|forward|email|e-mail|transmit|leak|copy|exfiltrate|share)\\b${gap(8)}\\s(?:to|at|into|with)\\s(?:https?://|[\\w.+-]+@[\\w-]+\\.[\\w.]+|my (?:server|endpoint|email|webhook)|(?:this|an?|the following)\\s(?:external\\s|outside\\s)?(?:url|address|endpoint|webhook|server|email address))`,
    'asks to send data to an outside destination',
  ),
  rule(
    'exfil-data.leak',
    'data-exfiltration',
    0.4,
    `\\bleak\\b${gap(3)}\\s(?:credentials|passwords?|keys|secrets|data|database|tokens|prompt|records)\\b`,
    'asks to leak data',
  ),
  rule('exfil-data.exfiltrate-word', 'data-exfiltration', 0.6, '\\bexfiltrat\\w*', 'names exfiltration'),
  rule(
    'exfil-data.markdown-image',
    'data-exfiltration',
    0.6,
    '!\\[[^\\]\\n]{0,100}\\]\\(\\s?https?://[^)\\s]{1,300}[?&][^)\\s=]{1,40}=',
    'a markdown image whose URL carries data (rendering it leaks the data)',
  ),
  rule(
    'exfil-data.url-template',
    'data-exfiltration',
    0.55,
    'https?://[^\\s"\'<>]{1,200}[?&][\\w-]{1,40}=(?:\\{\\{|\\$\\{|\\{|<|\\[)',
    'a URL with a placeholder for data to be filled in',
  ),
  rule(
    'exfil-data.collector-host',
    'data-exfiltration',
    0.5,
    '\\b(?:webhook\\.site|requestbin|pipedream\\.net|ngrok(?:-free)?\\.(?:io|app|dev)|burpcollaborator\\.net|interact\\.sh|oast\\.(?:pro|live|fun|me|site|online)|beeceptor\\.com|requestcatcher\\.com)\\b',
    'a host used to collect exfiltrated requests',
  ),
  rule(
    'exfil-data.smuggle-in-url',
    'data-exfiltration',
    0.5,
    `\\b(?:append|add|encode|put|embed|include)\\b${gap(4)}\\s(?:to|in|into|as)\\s(?:the\\s|a\\s)?(?:url|link|query(?: string| parameter)?|image (?:url|link)|request)\\b`,
    'asks to carry data inside a URL',
  ),
];
