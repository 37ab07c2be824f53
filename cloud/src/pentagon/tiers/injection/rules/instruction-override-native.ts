/**
 * Instruction override in other languages (es, fr, de, it, pt, nl, ru, zh, ja, ko), run on the plain
 * view only: the skeleton maps Cyrillic and Greek letters to Latin and would garble these scripts.
 */
import { type InjectionRule, NATIVE, rule } from './rule.js';

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
];
