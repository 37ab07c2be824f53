/**
 * A recording's own definition of a standard message type, against the one the edge bundles
 * (ros-message-definitions.ts). The recording's text says how its bytes were written and is what decodes them,
 * so a text that renames fields re-labels the data: a LaserScan whose definition swaps `ranges` and
 * `intensities` hid a person at 0.5 m behind intensities of 5.0 (outside review). Every field the bundled
 * definition has must appear in the recording's, with the same type and in the same order, in each of the
 * standard types both define; fields a later ROS distribution adds may sit anywhere besides. A definition that
 * breaks this is not the standard type, whatever its name says, and its messages are not read.
 */
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { ros2msgSchema, unifyTypeNames } from './ros-message-definitions.js';

interface Field {
  name: string;
  type: string;
  isArray?: boolean;
  arrayLength?: number;
  isConstant?: boolean;
}

type Sections = Map<string, Field[]>;

function sections(text: string, rootName: string): Sections {
  const parsed = parseMsgDefinition(unifyTypeNames(text), { ros2: true }) as {
    name?: string;
    definitions: Field[];
  }[];
  return new Map(
    parsed.map((d, i) => [i === 0 ? rootName : (d.name ?? ''), d.definitions.filter((f) => !f.isConstant)]),
  );
}

const describe = (f: Field): string => `${f.type}${f.isArray ? `[${f.arrayLength ?? ''}]` : ''} ${f.name}`;
const same = (a: Field, b: Field): boolean =>
  a.name === b.name && a.type === b.type && !!a.isArray === !!b.isArray && a.arrayLength === b.arrayLength;

/** Why `text` (a recording's definition of `type`) is not that standard type; undefined when it is, or not bundled. */
export function standardDefinitionProblem(type: string, text: string): string | undefined {
  const bundledText = ros2msgSchema(type);
  if (bundledText === undefined) return undefined;
  const root = type.replace(/\/msg\//, '/');
  const bundled = sections(bundledText, root);
  let recorded: Sections;
  try {
    recorded = sections(text, root);
  } catch {
    return undefined; // an unparsable text is refused where it is decoded, with its own reason
  }
  for (const [name, expected] of bundled) {
    const fields = recorded.get(name);
    if (!fields) continue; // not written out (an empty or partial text falls back to the bundled one)
    let at = 0;
    for (const f of fields) if (at < expected.length && same(f, expected[at]!)) at++;
    if (at < expected.length) {
      return (
        `in ${name}, the standard field ${describe(expected[at]!)} is missing or out of place ` +
        `(recorded: ${fields.map(describe).join(', ')}), so its bytes would be read under other names`
      );
    }
  }
  return undefined;
}
