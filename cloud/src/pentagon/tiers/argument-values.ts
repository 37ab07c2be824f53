/**
 * The values a policy rule reads for one named argument of a call, wherever a tool could read it from.
 */

import { type ArgumentName, isMultiplierName, nameForm } from './argument-names.js';

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
   * (`amount` beside `Amount`: the larger), multiplied by its count (`{ amount: 10, count: 1000 }` is 10 000;
   * argument-names.ts names the multipliers). An object's own value beside its members' total: see ownAndMembers.
   */
  total: number;
  /**
   * The multiplier members (`count`, `quantity`, …) of the objects that spend, as written: the spend rule
   * refuses a call whose multiplier is a number it cannot count or a string a tool could read as one.
   */
  multipliers: unknown[];
  /** False when the arguments nest deeper than MAX_ARGUMENT_DEPTH: the caller must refuse (fail closed). */
  complete: boolean;
}

/** An own value as a number for the total; any other value refuses the call before the total is read. */
const asNumber = (value: unknown): number => (typeof value === 'number' ? value : 0);

/**
 * The factor a multiplier member scales a payment by. Below 1 it does not lower the payment: a tool may read
 * a count of 0 as its default of one, and a fraction is no count (an invalid one is refused by the caller).
 */
const asFactor = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(1, value) : 1;

/** The name of the member that carries a call's own arguments inside a kernel payload or an envelope. */
const ARGUMENTS_MEMBER = 'arguments';

/** Relative tolerance for lines adding up to their total (binary fractions: 0.1 + 0.2 is not 0.3). */
const SUM_TOLERANCE = 1e-9;

/** What a walked value moves: its total, and how many separate payments (objects with an amount) make it. */
interface Moved {
  total: number;
  payments: number;
}

const NOTHING: Moved = { total: 0, payments: 0 };

/**
 * One object's own payment beside what its members move. They are distinct payments, and both count
 * (`{ amount: 900, payment: { amount: 900 } }` is 1 800: a tool may make the outer payment and the inner one;
 * outside attack review: it was charged 900), except where the members are provably the same money:
 * - two or more payments adding up to the own amount are its lines (`{ amount: 500, lines: [300, 200] }` is
 *   500, an invoice total beside its itemisation); one line equal to the total cannot be told from a second
 *   payment of the same size, so it counts twice (fail closed: the agent drops the repeat, or the total);
 * - the `arguments` member is the call's own arguments nested once more (a kernel `tool:invoke` payload in the
 *   agent routes' shape), another account of the same call: the larger of the two counts.
 */
function ownAndMembers(own: Moved, members: Moved, nestedCall: Moved): Moved {
  const lines =
    own.payments > 0 &&
    members.payments >= 2 &&
    Math.abs(members.total - own.total) <= SUM_TOLERANCE * Math.max(1, own.total);
  const combined: Moved = lines
    ? own
    : { total: own.total + members.total, payments: own.payments + members.payments };
  return combined.total >= nestedCall.total ? combined : nestedCall;
}

/**
 * The argument's values anywhere in the arguments: top level (the agent routes' `arguments`, a kernel
 * payload), in a nested `arguments` (a kernel `tool:invoke` in the agent routes' shape), and in any object or
 * array below, since a tool may read `options.amount` or `transfers[].amount` as well as `amount`. A rule
 * reads every one (the spend rule the total, the data-residency rule each), so a nested copy can only add to
 * what is checked. `isName` says which member names are the argument (argument-names.ts).
 */
export function argumentValues(args: Record<string, unknown>, isName: ArgumentName): ArgumentValues {
  const out: ArgumentValues = { values: [], total: 0, multipliers: [], complete: true };
  /** Walks `value`, collecting its values; returns what it moves (see ArgumentValues.total). */
  const walk = (value: unknown, depth: number): Moved => {
    if (typeof value !== 'object' || value === null) return NOTHING;
    if (depth > MAX_ARGUMENT_DEPTH) {
      out.complete = false;
      return NOTHING;
    }
    if (Array.isArray(value)) {
      const members = { total: 0, payments: 0 };
      for (const element of value) {
        const moved = walk(element, depth + 1);
        members.total += moved.total;
        members.payments += moved.payments;
      }
      return members;
    }
    const own = { total: 0, payments: 0 };
    const members = { total: 0, payments: 0 };
    let nestedCall = NOTHING;
    const factors: unknown[] = [];
    for (const [key, member] of Object.entries(value)) {
      if (isName(key)) {
        out.values.push(member);
        own.total = Math.max(own.total, asNumber(member));
        own.payments = 1;
      } else if (isMultiplierName(key)) {
        factors.push(member);
      }
      const moved = walk(member, depth + 1);
      if (nameForm(key) === ARGUMENTS_MEMBER) nestedCall = moved;
      else {
        members.total += moved.total;
        members.payments += moved.payments;
      }
    }
    const moved = ownAndMembers(own, members, nestedCall);
    if (moved.payments === 0 || factors.length === 0) return moved;
    // Two multipliers (`count` and `quantity`) are multiplied: they may be units of items in packs, and
    // reading them as two spellings of one count could only undercount.
    out.multipliers.push(...factors);
    const factor = factors.reduce<number>((product, f) => product * asFactor(f), 1);
    return { total: moved.total * factor, payments: moved.payments };
  };
  out.total = walk(args, 0).total;
  return out;
}
