import type { Command } from './command.js';

const pad = (s: string, n: number): string => (s.length >= n ? `${s}  ` : s.padEnd(n));

/** `pentagate --help`: every command with its one-line summary, grouped by first word. */
/** `withVersion`: the program answers `--version` (the top-level help says so; a group's does not). */
export function renderTopHelp(commands: readonly Command[], withVersion = false): string {
  const rows = commands
    .map((c) => [c.path.join(' '), c.summary] as const)
    .sort((a, b) => a[0].localeCompare(b[0]));
  const width = Math.max(12, ...rows.map(([name]) => name.length + 2));
  return [
    'pentagate: the governance gate for autonomous agents and robots',
    '',
    'Usage: pentagate <command> [options]',
    '',
    'Commands:',
    ...rows.map(([name, summary]) => `  ${pad(name, width)}${summary}`),
    '',
    'Run `pentagate <command> --help` for the options of one command.',
    ...(withVersion ? ['Run `pentagate --version` for the version.'] : []),
  ].join('\n');
}

/** `pentagate <group> --help` when the words name a group of commands, not one. */
export function renderGroupHelp(prefix: readonly string[], commands: readonly Command[]): string {
  const group = commands.filter((c) => prefix.every((w, i) => c.path[i] === w));
  return renderTopHelp(group).replace(
    'Usage: pentagate <command>',
    `Usage: pentagate ${prefix.join(' ')} <command>`,
  );
}

export function renderCommandHelp(command: Command): string {
  const lines = [
    `Usage: pentagate ${command.path.join(' ')} ${command.usage}`.trimEnd(),
    '',
    command.summary,
  ];
  if (command.description) lines.push('', command.description.trimEnd());
  const entries = Object.entries(command.options);
  lines.push('', 'Options:');
  const label = ([name, spec]: (typeof entries)[number]): string => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
    return `  ${short}--${name}${value}`;
  };
  const width = Math.max(24, ...entries.map((e) => label(e).length + 2));
  for (const entry of entries) {
    const [, spec] = entry;
    const dflt = spec.type === 'string' && spec.default !== undefined ? ` (default: ${spec.default})` : '';
    // a description of several lines continues in its column, under its first line
    const description = spec.description.split('\n').join(`\n${' '.repeat(width)}`);
    lines.push(`${pad(label(entry), width)}${description}${dflt}`);
  }
  lines.push(`${pad('  -h, --help', width)}Show this help`);
  return lines.join('\n');
}
