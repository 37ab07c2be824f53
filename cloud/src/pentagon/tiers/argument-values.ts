/**
 * The values a policy rule reads for one named argument of a call, wherever a tool could read it from.
 */

/**
 * The values of `object`'s own members named `name` in any letter case: a tool (or the JSON binding in
 * front of it) that reads `Amount` for `amount` would otherwise spend an `Amount` of 50 000 beside an
 * `amount` of 1 that the gate counted, or send data to the `Destination_Region` beside the
 * `destination_region` the gate checked.
 */
function membersNamed(object: unknown, name: string): unknown[] {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return [];
  const lower = name.toLowerCase();
  const values: unknown[] = [];
  for (const key of Object.keys(object)) {
    if (key.toLowerCase() === lower) values.push((object as Record<string, unknown>)[key]);
  }
  return values;
}

/**
 * The argument's values: top level (the agent routes' `arguments`, a kernel payload), and inside a nested
 * `arguments` object — where a kernel `tool:invoke` that copies the agent routes' shape
 * (`{ tool, arguments: { … } }`) carries it. A rule reads every one of them (the spend rule the largest,
 * the data-residency rule each), so a variant or a nested copy can only add to what is checked.
 */
export function argumentValues(args: Record<string, unknown>, name: string): unknown[] {
  const nested = membersNamed(args, 'arguments').flatMap((inner) => membersNamed(inner, name));
  return [...membersNamed(args, name), ...nested];
}
