/**
 * The built-in prompt-injection rules: deterministic, explainable patterns with weights. Categories follow
 * OWASP LLM01:2025 (direct and indirect prompt injection) and the attack families of published
 * benchmarks (BIPIA, Yi et al. 2023, arXiv:2312.14197; CyberSecEval prompt-injection incl. multilingual,
 * Meta PurpleLlama). Weights are chosen so that one unambiguous signal (≥ 0.5) refuses on its own while
 * weaker, ambiguous signals (< 0.5) refuse only together: a field scores 1 − Π(1 − weight).
 *
 * Rules see the normalised views of `normalise.ts` (lower case, blanks collapsed). Gaps between words are
 * bounded (`{0,n}`) so no rule can backtrack without limit.
 */

export type InjectionCategory =
  | 'instruction-override'
  | 'role-hijack'
  | 'prompt-exfiltration'
  | 'delimiter-smuggling'
  | 'encoding-smuggling'
  | 'tool-abuse'
  | 'data-exfiltration'
  | 'indirect-address'
  | 'tenant-pattern'
  | 'unscannable'
  /** Not a rule: the classifier stage (classifier/), named in findings beside the rule categories. */
  | 'classifier';

export type TextView = 'plain' | 'skeleton' | 'squashed';

export interface InjectionRule {
  readonly id: string;
  readonly category: InjectionCategory;
  readonly weight: number;
  readonly pattern: RegExp;
  /** Views the rule runs on: English rules run on plain and skeleton; other scripts on plain only. */
  readonly views: readonly TextView[];
  readonly description: string;
}

/** Up to `n` more words between two parts of a phrase. */
const gap = (n: number) => `(?:\\s\\S+){0,${n}}?`;
const EN: readonly TextView[] = ['plain', 'skeleton'];
const NATIVE: readonly TextView[] = ['plain'];

const OVERRIDE_VERBS =
  '(?:ignore|disregard|forget|bypass|override|overrule|set aside|throw out|discard|abandon)';
const INSTRUCTION_NOUNS =
  '(?:instructions?|directives?|rules|guidelines|prompts?|guardrails|constraints|restrictions|programming|system message|orders|commands)';

function rule(
  id: string,
  category: InjectionCategory,
  weight: number,
  source: string,
  description: string,
  views: readonly TextView[] = EN,
): InjectionRule {
  return { id, category, weight, pattern: new RegExp(source, 'u'), views, description };
}

export const INJECTION_RULES: readonly InjectionRule[] = [
  // ── instruction override ──────────────────────────────────────────────────────────────────────────
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
  rule(
    'override.es',
    'instruction-override',
    0.8,
    '(?:ignora|olvida|omite|descarta)r?\\s(?:todas\\s)?(?:las\\s|tus\\s)?(?:instrucciones|indicaciones|reglas)(?:\\s(?:anteriores|previas))?',
    'override (Spanish)',
    NATIVE,
  ),
  rule(
    'override.fr',
    'instruction-override',
    0.8,
    '(?:ignore|oublie)[sz]?\\s(?:toutes\\s)?(?:les\\s|tes\\s|vos\\s)?(?:instructions|consignes|règles)(?:\\s(?:précédentes|antérieures|ci-dessus))?',
    'override (French)',
    NATIVE,
  ),
  rule(
    'override.de',
    'instruction-override',
    0.8,
    '(?:ignorier(?:e|en|t)?|vergiss|vergessen sie)\\s(?:alle\\s)?(?:vorherigen\\s|bisherigen\\s|obigen\\s|deine\\s|ihre\\s)?(?:anweisungen|instruktionen|regeln|vorgaben)',
    'override (German)',
    NATIVE,
  ),
  rule(
    'override.it',
    'instruction-override',
    0.8,
    '(?:ignora|dimentica)\\s(?:tutte\\s)?(?:le\\s)?(?:istruzioni|regole)(?:\\s(?:precedenti|sopra))?',
    'override (Italian)',
    NATIVE,
  ),
  rule(
    'override.pt',
    'instruction-override',
    0.8,
    '(?:ignore|ignora|esqueça|esqueca)\\s(?:todas\\s)?(?:as\\s)?(?:instruções|instrucoes|regras)(?:\\s(?:anteriores|acima))?',
    'override (Portuguese)',
    NATIVE,
  ),
  rule(
    'override.nl',
    'instruction-override',
    0.8,
    '(?:negeer|vergeet)\\s(?:alle\\s)?(?:vorige\\s|eerdere\\s)?(?:instructies|regels)',
    'override (Dutch)',
    NATIVE,
  ),
  rule(
    'override.ru',
    'instruction-override',
    0.8,
    '(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй)\\s(?:все\\s)?(?:предыдущие\\s|прежние\\s)?(?:инструкции|указания|правила)',
    'override (Russian)',
    NATIVE,
  ),
  rule(
    'override.zh',
    'instruction-override',
    0.8,
    '(?:忽略|无视|忘记|忘掉|不要理会)(?:之前|以前|上面|先前|前面|所有|你)?(?:的)?(?:所有)?(?:指令|指示|说明|规则|提示)',
    'override (Chinese)',
    NATIVE,
  ),
  rule(
    'override.ja',
    'instruction-override',
    0.8,
    '(?:以前|前|上記|これまで|すべて)の(?:指示|命令|ルール)(?:を|は)(?:すべて)?(?:無視|忘れ)',
    'override (Japanese)',
    NATIVE,
  ),
  rule(
    'override.ko',
    'instruction-override',
    0.8,
    '(?:이전|위의|모든)\\s?(?:지시|명령|지침)(?:를|을|사항을)?\\s?(?:모두\\s)?무시',
    'override (Korean)',
    NATIVE,
  ),

  // ── role hijack ───────────────────────────────────────────────────────────────────────────────────
  rule(
    'role.unrestricted-persona',
    'role-hijack',
    0.6,
    `\\b(?:you are now|you're now|you will now be|act as|pretend to be|pretend you are|roleplay as|role-play as|behave as|become)\\b${gap(5)}\\s(?:unrestricted|unfiltered|uncensored|jailbroken|evil|amoral|unbound|limitless|without (?:any\\s)?(?:restrictions|limits|rules|filters|guidelines))|\\byou are\\s(?:an?\\s|the\\s)?(?:\\S+\\s)?(?:unrestricted|unfiltered|uncensored|jailbroken)\\b`,
    'assigns a persona without restrictions',
  ),
  rule(
    'role.no-rules',
    'role-hijack',
    0.6,
    `\\b(?:pretend|imagine|act as if|behave as if|suppose)\\b${gap(6)}\\s(?:no|without)\\s(?:any\\s)?(?:restrictions|rules|guidelines|filters|limits|limitations|ethics|ethical (?:guidelines|constraints)|content polic(?:y|ies)|safety (?:rules|guidelines))\\b`,
    'asks the model to behave as if it had no rules',
  ),
  rule(
    'role.known-jailbreak',
    'role-hijack',
    0.6,
    '\\b(?:do anything now|dan mode|developer mode (?:enabled|on|activated|output)|god mode (?:enabled|on|activated)|jailbreak mode|aim mode|evil confidant|stan mode)\\b',
    'names a published jailbreak persona',
  ),
  rule('role.jailbreak-word', 'role-hijack', 0.35, '\\bjailbr(?:eak|oken)\\b', 'mentions jailbreaking'),
  rule(
    'role.privileged-identity',
    'role-hijack',
    0.5,
    "\\b(?:i am|i'm|this is)\\s(?:your|the)\\s(?:developer|creator|administrator|admin|system administrator|operator|owner)\\b|\\b(?:act|respond|answer|speak) as (?:the\\s|an?\\s)?(?:system|root|superuser|sudo|administrator)\\b",
    'claims or assumes a privileged identity',
  ),
  rule(
    'role.not-bound',
    'role-hijack',
    0.55,
    `\\b(?:no longer|not|never)\\s(?:bound|restricted|limited|constrained)\\s(?:by|to)\\b|\\bfree (?:from|of)\\s(?:all\\s|any\\s)?(?:your\\s)?(?:rules|restrictions|guidelines|limitations|filters)\\b`,
    'declares the model freed from its rules',
  ),
  rule(
    'role.persona-es-fr-de',
    'role-hijack',
    0.35,
    '(?:ahora eres|a partir de ahora eres|tu es maintenant|désormais tu es|du bist (?:jetzt|nun|ab sofort)|现在你是|你现在是|теперь ты|今からあなたは)',
    'reassigns identity (es/fr/de/zh/ru/ja)',
    NATIVE,
  ),
  rule(
    'role.unrestricted-native',
    'role-hijack',
    0.4,
    '(?:sin (?:ninguna\\s)?restricciones|sans (?:aucune\\s)?restrictions?|ohne (?:jegliche\\s)?einschränkungen|没有(?:任何)?(?:限制|约束)|без (?:каких-либо\\s)?ограничений|制限なし|制限のない)',
    'without restrictions (es/fr/de/zh/ru/ja)',
    NATIVE,
  ),

  // ── system prompt exfiltration ────────────────────────────────────────────────────────────────────
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

  // ── delimiter and chat-template smuggling ─────────────────────────────────────────────────────────
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
  rule(
    'delimiter.banner',
    'delimiter-smuggling',
    0.3,
    '[-=#*_]{3,}\\s?(?:end|begin|new|system|instructions?)\\b',
    'a banner line that opens or closes a section',
  ),

  // ── encoding smuggling (textual cues; invisible and decoded payloads are scored in scan.ts) ─────────
  rule(
    'encoding.decode-and-follow',
    'encoding-smuggling',
    0.55,
    `\\b(?:decode|decrypt|translate|unscramble|reverse|rot13|base64-?decode)\\b${gap(8)}\\s(?:and then|and|then)\\s(?:follow|execute|run|obey|do|carry out|perform|act on)\\b`,
    'asks the model to decode text and obey it',
  ),

  // ── tool abuse ────────────────────────────────────────────────────────────────────────────────────
  rule(
    'tool.destructive-shell',
    'tool-abuse',
    0.6,
    'rm\\s-(?:rf|fr|r\\s-f)\\s(?:/|~|\\*|\\$home)(?:\\s|$|\\*)|:\\(\\)\\s?\\{\\s?:\\|:&\\s?\\};:|\\bmkfs\\.|\\bdd\\sif=/dev/(?:zero|u?random)\\sof=/dev/|chmod\\s-r\\s777\\s/(?:\\s|$)|\\b(?:curl|wget)\\s[^\\n|]{1,200}\\|\\s?(?:sudo\\s)?(?:ba|z)?sh\\b|\\bdrop\\s(?:database|schema)\\b|\\bformat\\sc:',
    'destructive shell or database commands',
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

  // ── data exfiltration ─────────────────────────────────────────────────────────────────────────────
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

  // ── indirect: text addressed to the model from inside data ─────────────────────────────────────────
  rule(
    'indirect.address-the-ai',
    'indirect-address',
    0.55,
    '\\b(?:note|message|instructions?|attention|notice|reminder|important)\\s(?:to|for)\\s(?:the\\s|any\\s|all\\s)?(?:ai|llm|assistant|language model|chatbot|agent|gpt|model|bot)s?\\b|\\bif you are an?\\s(?:ai|llm|language model|assistant|chatbot|gpt|agent|bot)\\b|\\b(?:ai|llm|assistant|agent|model)s?\\s(?:reading|processing|summari[sz]ing|parsing) this\\b|\\bdear (?:ai|assistant|llm|chatbot|agent)\\b|(?:^|[\\s(<\\[!-])(?:ai|llm)(?:\\s(?:agent|assistant|model|system))?\\s?:',
    'text inside data that addresses the AI directly',
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
