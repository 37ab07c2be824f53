/**
 * The values a policy rule reads for one named argument of a call, wherever a tool could read it from.
 */

import type { ArgumentName } from './argument-names.js';

/** Deeper than the JSON reader lets a request nest (DEFAULT_MAX_JSON_DEPTH), with room for a caller's own. */
const MAX_ARGUMENT_DEPTH = 256;

export interface ArgumentValues {
  /** Every value of a member with the argument's name, at any depth of the arguments, in document order. */
  values: unknown[];
  /**
   * What the call moves in all, read as numbers (only meaningful when every value is one: the spend rule
   * refuses the call otherwise). Every element of an array and every member of an object is a payment of its
   * own, so their totals add up, at any depth and in any collection: `transfers: [{ amount }, { amount }]`,
   * a map `transfers: { t1: { amount }, t2: { amount } }`, nested arrays `[[{ amount }], [{ amount }]]`,
   * siblings `{ first: { amount }, second: { amount } }` (an outside review found the last three charged only
   * their largest amount). One object's own values are one payment, however many spellings repeat it
   * (`amount` beside `Amount`: the larger). An object's own value and its members' total are read as two
   * accounts of the same call, the larger counting: a total beside its lines (`{ amount: 500, lines: [300,
   * 200] }` is 500, not 1000), the kernel's payload `amount` beside the same call's nested `arguments.amount`.
   */
  total: number;
  /** False when the arguments nest deeper than MAX_ARGUMENT_DEPTH: the caller must refuse (fail closed). */
  complete: boolean;
}

/** An own value as a number for the total; any other value refuses the call before the total is read. */
const asNumber = (value: unknown): number => (typeof value === 'number' ? value : 0);

/**
 * The argument's values anywhere in the arguments: top level (the agent routes' `arguments`, a kernel
 * payload), in a nested `arguments` (a kernel `tool:invoke` in the agent routes' shape), and in any object or
 * array below, since a tool may read `options.amount` or `transfers[].amount` as well as `amount`. A rule
 * reads every one (the spend rule the total, the data-residency rule each), so a nested copy can only add to
 * what is checked. `isName` says which member names are the argument (argument-names.ts).
 */
export function argumentValues(args: Record<string, unknown>, isName: ArgumentName): ArgumentValues {
  const out: ArgumentValues = { values: [], total: 0, complete: true };
  /** Walks `value`, collecting its values; returns the total it moves (see ArgumentValues.total). */
  const walk = (value: unknown, depth: number): number => {
    if (typeof value !== 'object' || value === null) return 0;
    if (depth > MAX_ARGUMENT_DEPTH) {
      out.complete = false;
      return 0;
    }
    let own = 0;
    if (!Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        if (!isName(key)) continue;
        const found = (value as Record<string, unknown>)[key];
        out.values.push(found);
        own = Math.max(own, asNumber(found));
      }
    }
    let members = 0;
    for (const member of Array.isArray(value) ? value : Object.values(value)) {
      members += walk(member, depth + 1);
    }
    return Math.max(own, members);
  };
  out.total = walk(args, 0);
  return out;
}
