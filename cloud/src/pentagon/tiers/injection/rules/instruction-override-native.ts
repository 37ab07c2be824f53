/**
 * Instruction override in other languages, run on the plain view only: the skeleton maps Cyrillic and
 * Greek letters to Latin and would garble these scripts. The first ten (es, fr, de, it, pt, nl, ru, zh,
 * ja, ko) came with the screen; the rest (pl, tr, sw, hi, ar, fa, he, id, vi, uk, cs, sv, da/no, el, ro,
 * hu, bn, th) were added after an outside review found "ignore all previous instructions" passing in
 * Polish, Turkish, Swahili, Hindi and Arabic: CyberSecEval's multilingual prompt-injection set and PINT
 * (30 % non-English) carry such translations of the English override.
 *
 * Each pattern is the verb of "ignore"/"forget" (or, where the language puts the object first, the
 * object), optional "all"/"previous"/"your", and a noun for instructions, rules or commands. Each must
 * open with a group of literals (rule-anchors.ts) so the prefilter finds it by its first word; one written
 * in Latin letters opens with `\b`, so that word is looked for at word starts only ("uita" is no hit in
 * "guitar"). Sources
 * are written in NFKC (the views are NFKC and lower case; the rules' test checks every source is).
 */
import { type InjectionRule, NATIVE, rule } from './rule.js';

/**
 * A Turkish pattern with every i and ı also matching the other, and an i followed by U+0307: lower-casing
 * is not Turkish-aware, so capital I becomes i (not ı) and İ becomes i + U+0307 (Unicode SpecialCasing).
 */
function turkish(source: string): string {
  return source.replace(/[iı]/g, '(?:ı|i\\u0307?)');
}

export const NATIVE_INSTRUCTION_OVERRIDE_RULES: readonly InjectionRule[] = [
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
  rule(
    'override.pl',
    'instruction-override',
    0.8,
    '\\b(?:zignoruj|ignoruj|pomiń|zapomnij\\so)\\s(?:wszystkie\\s|wszystkich\\s|wszelkie\\s)?(?:poprzednie\\s|wcześniejsze\\s|powyższe\\s|poprzednich\\s|wcześniejszych\\s|powyższych\\s|swoje\\s|swoich\\s)?(?:instrukcje|instrukcjach|instrukcji|polecenia|poleceniach|poleceń|zasady|zasadach|reguły)',
    'override (Polish)',
    NATIVE,
  ),
  rule(
    'override.tr',
    'instruction-override',
    0.8,
    // Turkish puts the object first: "önceki tüm talimatları yok say".
    turkish(
      '(?:önceki|yukarıdaki|tüm|bütün)\\s(?:(?:tüm|bütün|önceki|sana|verilen)\\s){0,2}(?:talimatları(?:nı)?|yönergeleri|kuralları|komutları)\\s(?:yok\\ssay|görmezden\\sgel|unut|dikkate\\salma|boş\\sver)',
    ),
    'override (Turkish)',
    NATIVE,
  ),
  rule(
    'override.sw',
    'instruction-override',
    0.8,
    '\\b(?:puuza|puuzia|sahau)\\s(?:maagizo|maelekezo|maelezo|amri|sheria)\\b',
    'override (Swahili)',
    NATIVE,
  ),
  rule(
    'override.hi',
    'instruction-override',
    0.8,
    // Object first: "पिछले सभी निर्देशों को अनदेखा करें".
    '(?:पिछले|पहले|ऊपर|सभी|सारे|अपने)\\s(?:(?:के|सभी|सारे|पिछले|दिए|गए)\\s){0,3}(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम)\\s(?:को\\s)?(?:अनदेखा|नजरअंदाज़|नजरअंदाज|भूल)'.normalize(
      'NFKC',
    ),
    'override (Hindi)',
    NATIVE,
  ),
  rule(
    'override.ar',
    'instruction-override',
    0.8,
    '(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|أهمل|اهمل)\\s(?:جميع\\s|كل\\s)?(?:التعليمات|الأوامر|الاوامر|الإرشادات|الارشادات|التوجيهات|القواعد|تعليماتك|أوامرك)',
    'override (Arabic)',
    NATIVE,
  ),
  rule(
    'override.fa',
    'instruction-override',
    0.8,
    // Object first, its plural suffix joined once the ZWNJ is removed: "دستورالعمل‌های قبلی را نادیده بگیر".
    '(?:دستور|همه|تمام)(?:\\s?(?:العمل|ات|ها|های|دستور|دستورات|دستورالعمل))*\\s(?:(?:قبلی|پیشین|خود|را)\\s){0,3}(?:نادیده\\sبگیر|فراموش\\sکن)',
    'override (Persian)',
    NATIVE,
  ),
  rule(
    'override.he',
    'instruction-override',
    0.8,
    '(?:התעלם|התעלמי|התעלמו|שכח|שכחי|שכחו)\\s(?:מכל\\s|את\\sכל\\s|את\\s|מ)?(?:ה)?(?:הוראות|הנחיות|כללים|פקודות)',
    'override (Hebrew)',
    NATIVE,
  ),
  rule(
    'override.id',
    'instruction-override',
    0.8,
    // Indonesian and Malay.
    '\\b(?:abaikan|lupakan|acuhkan|hiraukan)\\s(?:semua\\s|seluruh\\s|segala\\s)?(?:instruksi|perintah|petunjuk|arahan|aturan)',
    'override (Indonesian/Malay)',
    NATIVE,
  ),
  rule(
    'override.vi',
    'instruction-override',
    0.8,
    '(?:bỏ\\squa|phớt\\slờ|lờ\\sđi|quên)\\s(?:đi\\s)?(?:tất\\scả\\s|toàn\\sbộ\\s|mọi\\s)?(?:các\\s|những\\s)?(?:hướng\\sdẫn|chỉ\\sdẫn|chỉ\\sthị|mệnh\\slệnh|lệnh|quy\\stắc)'.normalize(
      'NFKC',
    ),
    'override (Vietnamese)',
    NATIVE,
  ),
  rule(
    'override.uk',
    'instruction-override',
    0.8,
    '(?:проігноруйте|проігноруй|ігноруйте|ігноруй|забудьте|забудь)\\s(?:усі\\s|всі\\s)?(?:попередні\\s|минулі\\s)?(?:інструкції|вказівки|правила|настанови)',
    'override (Ukrainian)',
    NATIVE,
  ),
  rule(
    'override.cs',
    'instruction-override',
    0.8,
    // Czech and Slovak.
    '\\b(?:ignorujte|ignoruj|zapomeňte\\sna|zapomeň\\sna|zabudni\\sna)\\s(?:všechny\\s|všetky\\s)?(?:předchozí\\s|předešlé\\s|predchádzajúce\\s|své\\s|svoje\\s)?(?:instrukce|inštrukcie|pokyny|příkazy|pravidla)'.normalize(
      'NFKC',
    ),
    'override (Czech/Slovak)',
    NATIVE,
  ),
  rule(
    'override.sv',
    'instruction-override',
    0.8,
    '\\b(?:ignorera|glöm|strunta\\si)\\s(?:alla\\s)?(?:tidigare\\s|föregående\\s|ovanstående\\s|dina\\s)?(?:instruktioner|anvisningar|regler|direktiv)',
    'override (Swedish)',
    NATIVE,
  ),
  rule(
    'override.da-no',
    'instruction-override',
    0.8,
    '\\b(?:ignorér|ignorer|glem)\\s(?:alle\\s)?(?:tidligere\\s|forrige\\s|ovenstående\\s|dine\\s)?(?:instruktioner|instruksjoner|instrukser|anvisninger|regler)',
    'override (Danish/Norwegian)',
    NATIVE,
  ),
  rule(
    'override.el',
    'instruction-override',
    0.8,
    // Upper-case Greek drops its accents, so both spellings.
    '(?:αγνόησε|αγνοησε|αγνοήστε|αγνοηστε|ξέχασε|ξεχασε|ξεχάστε|ξεχαστε)\\s(?:όλες\\s|ολες\\s)?(?:τις\\s)?(?:προηγούμενες\\s|προηγουμενες\\s|παραπάνω\\s|παραπανω\\s)?(?:οδηγίες|οδηγιες|εντολές|εντολες|κανόνες|κανονες)'.normalize(
      'NFKC',
    ),
    'override (Greek)',
    NATIVE,
  ),
  rule(
    'override.ro',
    'instruction-override',
    0.8,
    // ș/ț with a comma and the older ş/ţ with a cedilla (NFKC keeps them apart).
    '\\b(?:ignorați|ignoraţi|ignoră|ignora|uitați|uitaţi|uită|uita)\\s(?:toate\\s)?(?:instrucțiunile|instrucţiunile|instructiunile|regulile|indicațiile|indicaţiile)'.normalize(
      'NFKC',
    ),
    'override (Romanian)',
    NATIVE,
  ),
  rule(
    'override.hu',
    'instruction-override',
    0.8,
    '\\b(?:hagyd|hagyja|felejtsd|felejtse)\\s(?:figyelmen\\skívül|el)\\s(?:az\\s)?(?:összes\\s)?(?:korábbi\\s|előző\\s|eddigi\\s)?(?:utasítást|utasításokat|utasításaidat|szabályokat)',
    'override (Hungarian)',
    NATIVE,
  ),
  rule(
    'override.bn',
    'instruction-override',
    0.8,
    // Object first: "পূর্ববর্তী সমস্ত নির্দেশ উপেক্ষা করুন".
    '(?:পূর্ববর্তী|আগের|সমস্ত|সব)\\s(?:(?:সমস্ত|সব|পূর্ববর্তী|আগের)\\s){0,2}(?:নির্দেশাবলী|নির্দেশনা|নির্দেশ|নিয়ম)\\S{0,4}\\s(?:উপেক্ষা|ভুলে)'.normalize(
      'NFKC',
    ),
    'override (Bengali)',
    NATIVE,
  ),
  rule(
    'override.th',
    'instruction-override',
    0.8,
    // Thai writes no spaces between words.
    '(?:เพิกเฉย|ละเว้น|ลืม|ไม่ต้องสนใจ)(?:ต่อ)?\\s?(?:คำสั่ง|คำแนะนำ|กฎ)'.normalize('NFKC'),
    'override (Thai)',
    NATIVE,
  ),
];
