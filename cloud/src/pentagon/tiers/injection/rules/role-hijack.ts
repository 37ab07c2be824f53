/**
 * Role hijack: personas without restrictions, published jailbreak personas, claimed privileged
 * identities, and declarations that the model is freed from its rules.
 */
import { gap, type InjectionRule, NATIVE, rule } from './rule.js';

export const ROLE_HIJACK_RULES: readonly InjectionRule[] = [
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
];
