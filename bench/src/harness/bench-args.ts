/** The command line of `npm run bench -- [suite…] [--json] [--quick] [--no-pin] [--cpu N]`. */
import { parseArgs } from 'node:util';
import { UsageError } from '@pentagate/protocol';

export interface BenchArgs {
  suites: string[];
  json: boolean;
  quick: boolean;
  /** false with `--no-pin`: never call taskset. */
  pin: boolean;
  /** `--cpu N`: the CPU for "one core" suites (default: the highest allowed CPU). */
  cpu?: number;
  help: boolean;
}

export const BENCH_USAGE = `usage: npm run bench -- [suite…] [--json] [--quick] [--no-pin] [--cpu N]

Runs the named benchmark suites (files in bench/src/suites), or all of them when none is named.
  --json     print one JSON object { machine, suites, figures } on stdout; progress goes to stderr
  --quick    shrink iteration counts (a smoke run; the numbers are not meaningful)
  --no-pin   never pin to one CPU, even for suites measured "on one core"
  --cpu N    the CPU to pin "on one core" suites to (default: the highest CPU allowed)
  --help     this text
Exit codes: 0 ran, 1 a suite failed, 2 bad usage (e.g. an unknown suite name).`;

const SUITE_NAME = /^[a-z][a-z0-9-]*$/;

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // node:util words an unknown option as a hint about positionals starting with '-', which misleads:
    // the usual cause is a typo, and the four options fit on the line
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      throw new UsageError(
        `unknown option '${unknown[1]}'; the options are --json, --quick, --no-pin, --cpu N, --help\n${BENCH_USAGE}`,
      );
    }
    throw new UsageError(`${(error as Error).message}\n${BENCH_USAGE}`);
  }
  const { values, positionals } = parsed;
  for (const name of positionals) {
    if (!SUITE_NAME.test(name)) {
      throw new UsageError(
        `expected a suite name (lower-case letters, digits, '-'), got ${JSON.stringify(name)}`,
      );
    }
  }
  const args: BenchArgs = {
    suites: [...new Set(positionals)],
    json: values.json === true,
    quick: values.quick === true,
    pin: values['no-pin'] !== true,
    help: values.help === true,
  };
  if (values.cpu !== undefined) {
    const cpu = Number(values.cpu);
    if (!/^\d+$/.test(values.cpu) || !Number.isSafeInteger(cpu)) {
      throw new UsageError(`--cpu expects a CPU number such as 1, got ${JSON.stringify(values.cpu)}`);
    }
    args.cpu = cpu;
  }
  return args;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean' },
      quick: { type: 'boolean' },
      'no-pin': { type: 'boolean' },
      cpu: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
