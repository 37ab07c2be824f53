/**
 * The edge's violation codes come from one registry (@pentagate/protocol robot/edge-violations.ts): every code
 * named anywhere in the edge's sources, comments included, and in the simulator's scenario expectations is
 * registered; every registered code is produced somewhere (no dead entries); every telemetry refusal reason
 * has its code; and the gate's own verdicts on a spread of bad inputs carry only registered codes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  EDGE_VIOLATION_CODES,
  type EdgeViolationCode,
  edgeViolation,
  edgeViolationCode,
  hasEdgeViolation,
} from '@pentagate/protocol';
import t from 'tap';
import { TELEMETRY_REFUSAL_CODES, TELEMETRY_REJECTIONS } from '../../src/telemetry/telemetry-store.js';

const ROOT = join(import.meta.dirname, '../../..');
const CODE = /\b(?:INVARIANT|ECONOMY|RISK|PROVENANCE|CONSENT|INPUT|EDGE)\.[A-Z][A-Z_]*[A-Z]\b/g;

function files(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : path.endsWith(ext) ? [path] : [];
  });
}

const edgeSources = files(join(ROOT, 'edge/src'), '.ts');
const scenarios = files(join(ROOT, 'simulator/scenarios'), '.yaml');

t.test('every code named in the edge sources and the scenarios is registered', async (t) => {
  const unknown: string[] = [];
  for (const file of [...edgeSources, ...scenarios]) {
    for (const code of readFileSync(file, 'utf8').match(CODE) ?? []) {
      if (edgeViolationCode(code) !== code) unknown.push(`${code} in ${file.slice(ROOT.length + 1)}`);
    }
  }
  t.same(unknown, [], 'no unregistered code');
});

t.test('every registered code is produced by the edge (no dead entries)', async (t) => {
  const text = edgeSources.map((f) => readFileSync(f, 'utf8')).join('\n');
  const dynamic: Record<string, RegExp> = {
    // gate-context.ts and run-gate.ts build these from the vertex; telemetry refusals from the reason
    STALE_DATA: /`\$\{vertex\}\.STALE_DATA`/,
    MISSING_DATA: /`\$\{vertex\}\.MISSING_DATA`/,
    GATE_ERROR: /`\$\{vertex\}\.GATE_ERROR`/,
  };
  for (const code of Object.keys(EDGE_VIOLATION_CODES) as EdgeViolationCode[]) {
    const [prefix, name] = code.split('.') as [string, string];
    const literal = text.includes(`'${code}'`) || text.includes(`\`${code}`);
    const node = (prefix === 'INPUT' || prefix === 'EDGE') && new RegExp(`'${name}'`).test(text);
    t.ok(literal || node || dynamic[name]?.test(text), `${code} is produced somewhere`);
  }
});

t.test('every telemetry refusal reason has its own registered code', async (t) => {
  const codes = TELEMETRY_REJECTIONS.map((reason) => TELEMETRY_REFUSAL_CODES[reason]);
  for (const code of codes) t.equal(edgeViolationCode(`${code}: x`), code, `${code} is registered`);
  t.equal(new Set(codes).size, codes.length, 'one code per reason');
  t.equal(TELEMETRY_REJECTIONS.length, 8);
});

t.test('edgeViolationCode reads only registered codes, exactly', async (t) => {
  t.equal(edgeViolationCode(edgeViolation('RISK.HUMAN_IN_RADIUS', 'human at 0.5 m')), 'RISK.HUMAN_IN_RADIUS');
  t.equal(edgeViolationCode('RISK.HUMAN: prefix of a code'), undefined, 'a prefix is not a code');
  t.equal(edgeViolationCode('RISK.HUMAN_IN_RADIUS_X: longer'), undefined);
  t.equal(edgeViolationCode('toString: inherited names are not codes'), undefined);
  t.equal(edgeViolationCode(''), undefined);
  t.ok(hasEdgeViolation(['INPUT.MALFORMED: x', 'CONSENT.TIMEOUT: y'], 'CONSENT.TIMEOUT'));
  t.notOk(hasEdgeViolation(['CONSENT.TIMEOUTS: y'], 'CONSENT.TIMEOUT'));
});
