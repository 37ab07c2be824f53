/**
 * The propose load both cloud suites drive (`cloud`: one process on SQLite beside hello-world;
 * `cloud-scale`: replicas on PostgreSQL): the example policy with a budget the run cannot exhaust, a
 * realistic supplier-payment tool call whose ids vary (so no loop rule fires), and autocannon's figures.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { TableRow } from '../../harness/index.js';

export const root = new URL('../../../../', import.meta.url);

/** The documented example policy with a budget that the run cannot exhaust (so calls stay approvals). */
export function benchPolicy(): string {
  const example = readFileSync(new URL('cloud/policies/example.yaml', root), 'utf8');
  return example.replace(/(id: default-hourly[\s\S]*?amount: )1000\b/, '$11000000000000');
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
function word(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return s;
}

/** A realistic tool call: a supplier payment with its trigger prompt; ids vary so no loop rule fires. */
export function proposeBody(lobe: string): string {
  const invoice = `INV-${word(4)}-${Math.floor(Math.random() * 1e5)}`;
  const amount = Math.round(50 + Math.random() * 900);
  return JSON.stringify({
    lobe_name: lobe,
    spend_amount: amount,
    tool_call: {
      id: `call-${invoice}-${word(8)}`,
      tool_name: 'payments.transfer',
      arguments: {
        recipient: { name: `${word(6)} Supplies Ltd`, iban: 'GB33BUKB20201555555555' },
        amount,
        currency: 'USD',
        reference: invoice,
        memo: `Settlement of ${invoice} for office equipment delivered in May`,
      },
      agent_confidence: 0.93,
      trigger_prompt: `Please pay invoice ${invoice} from our approved supplier list; amount ${amount} USD, due Friday.`,
      call_depth: 1,
      context: { ticket: `AP-${word(3)}-${Math.floor(Math.random() * 1e4)}` },
    },
  });
}

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon(options);
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** autocannon options for `connections` clients proposing on `url` with `apiKey` for the agent `lobe`. */
export function proposeLoad(
  url: string,
  apiKey: string,
  lobe: string,
  connections: number,
  duration: number,
): autocannon.Options {
  return {
    url: `${url}/api/v1/agentgate/propose`,
    connections,
    duration,
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: proposeBody(lobe) }) }],
  };
}

/** The agent both suites register (`POST /api/v1/agentgate/register`) before proposing as it. */
export const BENCH_AGENT = {
  agent_name: 'accounts-payable',
  domain: 'FINANCE',
  capabilities: ['payments.transfer'],
  agent_version: '3.2.0',
  model_id: 'gpt-4o-2024-08-06',
} as const;

/** One table row of a load result. */
export function loadRow(name: string, r: LoadResult): TableRow {
  return {
    name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50Ms,
    'p99 ms': r.p99Ms,
    requests: r.requests,
    'non-2xx': r.non2xx,
    errors: r.errors,
  };
}
