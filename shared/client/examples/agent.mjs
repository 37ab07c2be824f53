#!/usr/bin/env node
// A small agent governed by Pentagate: it proposes actions, runs only what the kernel allows (exactly
// once), explains refusals with the kernel's remediation, and reads back its audit trail.
//
// Run against `pentagate cloud serve` (see shared/client/README.md):
//   PENTAGATE_URL=http://127.0.0.1:8080 PENTAGATE_API_KEY=pgk_… node shared/client/examples/agent.mjs
import { DoubleExecutionError, ExecutionDeniedError, GovClient, GovError } from '@pentagate/client';

const baseUrl = process.env.PENTAGATE_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.PENTAGATE_API_KEY;
if (!apiKey) {
  console.error('set PENTAGATE_API_KEY to an agent-scope key (pentagate cloud apikey issue --scope agent)');
  process.exit(2);
}

let client;
try {
  client = new GovClient({ baseUrl, apiKey, timeoutMs: 5000 });
} catch (err) {
  // the options are checked at construction: a URL fetch cannot use is a setting to fix, not a crash
  if (!(err instanceof GovError)) throw err;
  console.error(err.message.replace(/^baseUrl:/, 'PENTAGATE_URL:'));
  process.exit(2);
}
const agentId = 'example-billing-agent';

/** Proposes an action and, if the kernel allows it, "performs" it and reports the execution. */
async function governed(title, action, perform) {
  const decision = await client.authorize(action);
  console.log(`\n${title}\n  → ${decision.status} (proposal ${decision.proposalId})`);
  for (const v of decision.violations) console.log(`    ${v.message}`);
  if (decision.remediation) console.log(`    remediation: ${decision.remediation}`);
  if (decision.holdUntil) console.log(`    runs after ${decision.holdUntil} unless an operator vetoes it`);
  if (decision.status === 'REQUIRE_HUMAN') {
    console.log('    an operator can approve it: POST /api/v1/approvals/<id>/approve { actionDigest }');
  }
  if (decision.status !== 'ALLOW') return decision;
  const result = await client.execute(decision.proposalId);
  await perform();
  console.log(
    `  execution ${result.executionId} at ${result.executedAt} (audit entry #${result.auditIndex}); proof kept for auditors`,
  );
  return decision;
}

try {
  const paid = await governed(
    '1. pay invoice 4471 (120 USD)',
    {
      type: 'ledger:write',
      payload: { amount: 120, recipient: 'Contoso Ltd', currency: 'USD', memo: 'invoice 4471' },
      context: { agentId, confidenceScore: 0.93, reason: 'Invoice 4471 is due today.' },
      idempotencyKey: 'invoice-4471', // safe to retry: the same key returns the same decision
    },
    async () => console.log('  (the payment system would be called here)'),
  );

  // Executing the same proposal again is refused by the kernel, whichever process tries.
  try {
    await client.execute(paid.proposalId);
  } catch (err) {
    if (err instanceof DoubleExecutionError)
      console.log(`  second execute refused: ${err.code} (${err.status})`);
    else throw err;
  }

  await governed(
    '2. run a shell command',
    {
      type: 'tool:invoke',
      payload: { tool: 'shell.exec', command: 'rm -rf /tmp/cache' },
      context: { agentId, confidenceScore: 0.8 },
    },
    async () => {},
  );

  const unsure = await governed(
    '3. pay a new supplier, unsure (confidence 0.3)',
    {
      type: 'ledger:write',
      payload: { amount: 80, recipient: 'New Supplier GmbH' },
      context: { agentId, confidenceScore: 0.3 },
    },
    async () => {},
  );
  try {
    await client.execute(unsure.proposalId);
  } catch (err) {
    if (err instanceof ExecutionDeniedError) console.log(`  execute before approval refused: ${err.message}`);
    else throw err;
  }

  const replay = await client.replay(paid.proposalId);
  console.log(`\n4. replay of proposal 1: identical = ${replay.identical}`);

  console.log('\n5. my audit trail (an auditor key proves each index: GET /api/v1/audit/inclusion?index=N):');
  for await (const e of client.auditEvents({ agentId, limit: 50 })) {
    console.log(`  #${e.index} ${e.at} ${e.type} ${e.data.proposalId ?? ''} ${e.data.outcome ?? ''}`);
  }
} catch (err) {
  if (err instanceof GovError) {
    console.error(`pentagate: ${err.name} ${err.code} (HTTP ${err.status}): ${err.message}`);
    process.exit(1);
  }
  throw err;
}
