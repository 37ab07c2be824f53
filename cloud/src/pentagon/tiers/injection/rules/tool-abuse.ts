/**
 * Tool abuse (OWASP LLM06:2025 Excessive Agency): destructive commands, hidden or covert actions,
 * disabled safeguards, drained funds, privilege grants and tool calls with side effects.
 */
import { gap, type InjectionRule, rule } from './rule.js';

export const TOOL_ABUSE_RULES: readonly InjectionRule[] = [
  rule(
    'tool.destructive-shell',
    'tool-abuse',
    0.6,
    'rm\\s-(?:rf|fr|r\\s-f)\\s(?:/|~|\\*|\\$home)(?:\\s|$|\\*)|:\\(\\)\\s?\\{\\s?:\\|:&\\s?\\};:|\\bmkfs\\.|\\bdd\\sif=/dev/(?:zero|u?random)\\sof=/dev/|chmod\\s-r\\s777\\s/(?:\\s|$)|\\b(?:curl|wget)\\s[^\\n|]{1,200}\\|\\s?(?:sudo\\s)?(?:ba|z)?sh\\b|\\bdrop\\s(?:database|schema)\\b|\\bformat\\sc:',
    'destructive shell or database commands',
  ),
  rule(
    'tool.reverse-shell',
    'tool-abuse',
    0.6,
    '/dev/(?:tcp|udp)/[^\\s/]{1,253}/\\d{1,5}|\\b(?:nc|ncat|netcat)\\s[^\\n|;]{0,80}?-[a-z]{0,3}e\\s?/?(?:bin/)?(?:ba|z|da)?sh\\b|\\bsocat\\s[^\\n]{0,200}\\bexec:|\\bmkfifo\\s[^\\n]{0,120}\\b(?:nc|ncat|netcat)\\s|\\bsocket\\.socket\\([^\\n]{0,300}\\b(?:dup2|pty\\.spawn|subprocess)\\b',
    'a reverse shell: a shell wired to a network socket',
  ),
  rule(
    'tool.credential-exfiltration',
    'tool-abuse',
    0.6,
    '(?:\\.aws/credentials|\\.ssh/id_[a-z0-9]+|/etc/shadow|\\.pgpass|\\.netrc|\\.git-credentials|\\.docker/config\\.json|\\.kube/config)\\b[^\\n]{0,200}?\\|\\s?(?:base64\\s?\\|\\s?)?(?:nc|ncat|netcat|curl|wget|socat|telnet)\\b|\\b(?:curl|wget)\\s[^\\n]{0,200}?(?:-d|--data(?:-binary|-raw)?|-f|--form|-t|--upload-file|--post-file)[\\s=]?["\']?@?[^\\s]{0,80}?(?:\\.aws/credentials|\\.ssh/id_[a-z0-9]+|/etc/shadow|\\.pgpass|\\.netrc|\\.git-credentials)',
    'sends a credential file over the network',
  ),
  rule(
    'tool.hidden-action',
    'tool-abuse',
    0.5,
    `\\b(?:without|do not|don't|never)\\s(?:asking|telling|notifying|informing|confirming|confirmation|alerting|mentioning|tell|inform|notify|alert|mention|ask)\\b${gap(2)}\\s?(?:the\\s)?(?:user|human|operator|owner|admin|customer|anyone|them)(?=\\s?[.;,!:]|$|\\s(?:and|just|about|anything|then|before|first)\\b)`,
    'asks for an action hidden from the user',
  ),
  rule(
    'tool.covert',
    'tool-abuse',
    0.25,
    '\\b(?:silently|secretly|covertly|quietly|discreetly|behind the scenes)\\b',
    'asks for covert action',
  ),
  rule(
    'tool.disable-safeguards',
    'tool-abuse',
    0.6,
    `\\b(?:disable|turn off|deactivate|bypass|circumvent|switch off|skip|delete|erase|wipe|tamper with)\\b${gap(3)}\\s(?:audit (?:logs?|trail)|guardrails?|safety (?:checks?|filters?|mechanisms?)|content (?:filters?|moderation)|safeguards|governance|monitoring (?:agent|system)|security (?:controls?|checks?)|approval (?:step|process|checks?)|(?:all\\s|the\\s|any\\s)?(?:checks|approvals?|verifications?))\\b`,
    'asks to disable audit, safety or governance controls',
  ),
  rule(
    'tool.drain-funds',
    'tool-abuse',
    0.5,
    `\\b(?:transfer|wire|send|move|withdraw|pay)\\b${gap(3)}\\s(?:all (?:the\\s)?(?:funds|money|balance|bitcoin|crypto|assets)|(?:the\\s)?entire (?:balance|account|treasury)|everything in (?:the\\s)?(?:account|wallet))\\b`,
    'asks to move all funds',
  ),
  rule(
    'tool.privilege-grant',
    'tool-abuse',
    0.35,
    `\\b(?:grant|give|assign|add|elevate|escalate)\\b${gap(4)}\\s(?:(?:admin(?:istrator)?|owner|full|unrestricted)\\s(?:access|privileges?|rights|role|permissions?)|(?:root|superuser)(?:\\s(?:access|privileges?|rights|role|permissions?))?)\\b`,
    'asks for elevated privileges',
  ),
  rule(
    'tool.privilege-to-untrusted',
    'tool-abuse',
    0.3,
    `\\b(?:grant|give|assign|add|elevate)\\s(?:the\\s)?(?:guest|anonymous|everyone|public|all users|external|unknown|my (?:own\\s)?account|me)\\b`,
    'hands privileges to an untrusted or self-chosen principal',
  ),
  rule(
    'tool.sensitive-system-file',
    'tool-abuse',
    0.4,
    '/etc/(?:sudoers|shadow|passwd)\\b|\\.ssh/(?:authorized_keys|id_[a-z0-9]+)|\\.aws/credentials|\\.bash_history|\\.pgpass|\\.npmrc',
    'names a credential or system file',
  ),
  rule(
    'tool.skip-review',
    'tool-abuse',
    0.35,
    '\\bwithout\\s(?:any\\s|further\\s|additional\\s)?(?:review|approval|verification|sign-?off|checks?|confirmation)\\b',
    'asks to act without the usual review',
  ),
  rule(
    'tool.auth-reset',
    'tool-abuse',
    0.3,
    '\\b(?:reset|disable|remove|turn off|bypass)\\s(?:the\\s|their\\s|his\\s|her\\s)?(?:mfa|2fa|two-factor|multi-factor)\\b',
    'asks to reset or remove a second factor (account takeover)',
  ),
  rule(
    'tool.call-directive',
    'tool-abuse',
    0.3,
    `\\b(?:call|invoke|use|run|execute|trigger)\\b\\s(?:the\\s)?\\S+\\s(?:tool|function|api|endpoint|plugin)\\b${gap(6)}\\s(?:to|and)\\s(?:transfer|send|delete|wire|pay|grant|export|forward|upload|post|purchase|buy|approve)\\b`,
    'directs the agent to call a tool with side effects',
  ),
];
