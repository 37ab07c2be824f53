/**
 * Which member names of a call's arguments are a policy rule's argument, as a tool's binding may read them.
 * The spelling is normalised once here, and argument-values.ts compares only normalised names.
 */

/** Tests one member name (as written in the arguments) against a rule's argument. */
export type ArgumentName = (key: string) => boolean;

/**
 * A member name in one form: NFKC (Unicode UAX #15: full-width `ａｍｏｕｎｔ` and other compatibility forms
 * are `amount`), any letter case, and no `_`, `-` or spaces between words, so `Amount`, `destinationRegion`
 * and `destination-region` are the rule's `amount` and `destination_region`. A variant beside the name the
 * gate checked would otherwise carry another value to the tool (an `Amount` of 50 000 beside an `amount` of 1).
 */
export const nameForm = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[-_\s]/g, '');

/** The rule's argument in any of the spellings nameForm folds. */
export function sameName(argument: string): ArgumentName {
  const wanted = nameForm(argument);
  return (key) => nameForm(key) === wanted;
}

/** English plurals of a normalised name: `amounts`, `taxes`, `quantities`. */
function pluralForms(form: string): string[] {
  const forms = [`${form}s`, `${form}es`];
  if (form.endsWith('y')) forms.push(`${form.slice(0, -1)}ies`);
  return forms;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A unit after a spend argument's name: an ISO 4217 currency code (three letters: `AMOUNT_USD`), or a minor
 * unit (`Amount-Cents`, `amountInCents`, `amount_minor_units`, `amountMicros`), optionally after `in`. Every
 * such member is counted at its face value against the budget: the gate does not know how the unit relates to
 * the budget's, and face value never undercounts a minor unit (a cents value is 100 × its dollars). Any other
 * three letters read as a code too (`amount_due`, `amount_max`): a number there counts, which only fails closed.
 */
const UNIT_SUFFIX = '(?:in)?(?:[a-z]{3}|cents?|minor(?:units?)?|micros?|pence|pennies)';

/**
 * A spend argument in every spelling a payment API could give it, beyond sameName's: the plural (`amounts`)
 * and a unit after it (UNIT_SUFFIX), so `{ amount: 1, amounts: 50000 }` or `{ amount: 1, AMOUNT_USD: 50000 }`
 * is not a spend of 1 (outside attack review). Only for spends: more copies of an amount only raise it, while
 * a data-residency rule reads its own argument's name (a `destination_region_name` is not a region code).
 */
export function spendName(argument: string): ArgumentName {
  const wanted = nameForm(argument);
  const names = [wanted, ...pluralForms(wanted)].map(escaped).join('|');
  const pattern = new RegExp(`^(?:${names})(?:${UNIT_SUFFIX})?$`);
  return (key) => pattern.test(nameForm(key));
}

/**
 * The members that multiply a payment's amount: `{ amount: 10, count: 1000 }` pays 10 a thousand times
 * (outside attack review: it was charged 10). Singular `unit` is left out: it names a currency or measure
 * (`unit: "USD"`), not a number of items.
 */
const MULTIPLIER_FORMS = new Set(['count', 'counts', 'quantity', 'quantities', 'qty', 'units']);

export const isMultiplierName: ArgumentName = (key) => MULTIPLIER_FORMS.has(nameForm(key));
