/**
 * The values a policy rule reads for one named argument of a call, wherever a tool could read it from.
 */

/**
 * A member name as a tool's binding may read it: any letter case, with or without `_`, `-` or spaces
 * between words, so `Amount`, `destinationRegion` and `destination-region` are the rule's `amount` and
 * `destination_region`. A variant beside the name the gate checked would otherwise carry another value to
 * the tool (an `Amount` of 50 000 beside an `amount` of 1).
 */
const nameForm = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');

/** Deeper than the JSON reader lets a request nest (DEFAULT_MAX_JSON_DEPTH), with room for a caller's own. */
const MAX_ARGUMENT_DEPTH = 256;

export interface ArgumentValues {
  /** Every value of a member with the argument's name, at any depth of the arguments, in document order. */
  values: unknown[];
  /**
   * For each array whose elements carry the argument as a direct member (a batch: `transfers: [{ amount },
   * { amount }]`), those values: a call that moves each element moves their sum.
   */
  batches: unknown[][];
  /** False when the arguments nest deeper than MAX_ARGUMENT_DEPTH: the caller must refuse (fail closed). */
  complete: boolean;
}

/**
 * The argument's values anywhere in the arguments: top level (the agent routes' `arguments`, a kernel
 * payload), in a nested `arguments` (a kernel `tool:invoke` in the agent routes' shape), and in any object or
 * array below, since a tool may read `options.amount` or `transfers[].amount` as well as `amount`. A rule
 * reads every one (the spend rule the largest single value or batch sum, the data-residency rule each), so a
 * nested copy can only add to what is checked.
 */
export function argumentValues(args: Record<string, unknown>, name: string): ArgumentValues {
  const wanted = nameForm(name);
  const out: ArgumentValues = { values: [], batches: [], complete: true };
  const ownValues = (object: object): unknown[] => {
    const found: unknown[] = [];
    for (const key of Object.keys(object)) {
      if (nameForm(key) === wanted) found.push((object as Record<string, unknown>)[key]);
    }
    return found;
  };
  /** Walks `value`; returns an object's own values of the argument (none for an array or a scalar). */
  const walk = (value: unknown, depth: number): unknown[] => {
    if (typeof value !== 'object' || value === null) return [];
    if (depth > MAX_ARGUMENT_DEPTH) {
      out.complete = false;
      return [];
    }
    if (Array.isArray(value)) {
      const batch = value.flatMap((element) => walk(element, depth + 1));
      if (batch.length > 1) out.batches.push(batch);
      return [];
    }
    const own = ownValues(value);
    out.values.push(...own);
    for (const member of Object.values(value)) walk(member, depth + 1);
    return own;
  };
  walk(args, 0);
  return out;
}
