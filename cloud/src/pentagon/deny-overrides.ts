/**
 * The one combining algorithm of every decision the cloud makes: deny-overrides (XACML 3.0 §C.2
 * "Deny-overrides") extended with the pentagon's two softer effects — any deny → DENY; otherwise any
 * require-human → REQUIRE_HUMAN; otherwise any hold → HELD_FOR_VETO; otherwise ALLOW. The pentagon's
 * arbitration tier combines its rule findings with it, and the kernel combines the pentagon's violations
 * with its action-type rules with it, so the order of effects is written once.
 */
import type { AuthorizationStatus, ViolationCodeInfo } from '@pentagate/protocol';

export type Effect = ViolationCodeInfo['effect'];

/** The status, and the items that decided it (every item of the winning effect; none for ALLOW). */
export function denyOverrides<T>(
  items: readonly T[],
  effectOf: (item: T) => Effect,
): { status: AuthorizationStatus; deciding: T[] } {
  const of = (e: Effect) => items.filter((item) => effectOf(item) === e);
  const denies = of('deny');
  if (denies.length > 0) return { status: 'DENY', deciding: denies };
  const humans = of('require-human');
  if (humans.length > 0) return { status: 'REQUIRE_HUMAN', deciding: humans };
  const holds = of('hold');
  if (holds.length > 0) return { status: 'HELD_FOR_VETO', deciding: holds };
  return { status: 'ALLOW', deciding: [] };
}
