/**
 * `npm run bench -- cloud-policy` (speed): the pentagon's policy evaluation alone
 * (`evaluateToolCall`, no HTTP, no store, no signing) beside Cedar (`@cedar-policy/cedar-wasm`, pre-parsed
 * policy set) evaluating the equivalent rules of `cloud/policies/example.yaml`.
 * Target: the pentagon is not slower than Cedar (p50).
 *
 * What is compared. Cedar gets every rule of the example policy that Cedar can express, one forbid
 * each: denied tools, the region, department and data-residency rules, the three protected resources,
 * both consent rules and the hold-for-veto rule (Cedar has no REQUIRE_HUMAN or HELD_FOR_VETO effect, so
 * they forbid), the budget, the call depth and the custody requirement (as a precomputed boolean:
 * Cedar cannot verify signatures). It gets precomputed facts in `context` (one `path`, the remaining
 * budget, `custodyVerified`) and returns allow/deny only. The pentagon evaluates the same rules from
 * the raw call — protected paths on every string argument after path normalisation, case-insensitive
 * tool globs, fail-closed missing values — and in addition screens the trigger prompt and every string
 * and key for prompt injection, takes five SHA-256 digests (the tier-1 commitment and the two loop
 * fingerprints), checks the arguments are plain JSON, runs the metabolic ledger over the (empty)
 * history and builds the explained verdict (tiers, defence brief, remediation, simulation). So the
 * comparison is in Cedar's favour: it does a subset of the work. Cedar's time includes passing the
 * request as JSON into WebAssembly, which is how cedar-wasm is used from Node.
 *
 * The pentagon is loaded from `cloud/dist` at run time (npm run bench builds first) because the cloud
 * package does not export it from its index yet; a local interface types the two functions used.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { TrustStore, generateEd25519, trustEntryFor } from '@pentagate/crypto';
import { type BenchSuite, type LatencyStats, sectionOf, target } from '../harness/index.js';

interface PentagonModule {
  evaluateToolCall(input: unknown): { status: string };
}
interface PolicyModule {
  loadPolicy(yaml: string, source: string): unknown;
}

const root = new URL('../../../', import.meta.url);

const CEDAR_POLICIES = `
permit(principal, action, resource);
forbid(principal, action, resource) when { context.tool like "shell.*" || context.tool == "os.exec" };
forbid(principal, action, resource) when { (context.tool like "crm.*" || context.tool like "records.*") && !(["EU", "EEA"].contains(context.region)) };
forbid(principal, action, resource) when { context.tool like "payments.*" && !(["finance", "treasury"].contains(context.department)) };
forbid(principal, action, resource) when { context.tool == "records.export" && context.destination_region != "EU" };
forbid(principal, action, resource) when { context.path like "/etc/*" };
forbid(principal, action, resource) when { context.path like "policy:*" };
forbid(principal, action, resource) when { (context.tool like "fs.*" || context.tool like "storage.*") && context.path like "*/.env" };
forbid(principal, action, resource) when { (context.tool == "payments.transfer" || context.tool == "payments.wire") && context.spendCents >= 1000000 };
forbid(principal, action, resource) when { context.tool == "deploy.production" };
forbid(principal, action, resource) when { context.tool == "email.send_bulk" };
forbid(principal, action, resource) when { context.tool == "ledger.import" && !context.custodyVerified };
forbid(principal, action, resource) when { context.callDepth > 8 };
forbid(principal, action, resource) when { context.spendCents > context.remainingCents };
`;

interface Case {
  name: string;
  call: Record<string, unknown>;
  context: Record<string, string | number | boolean>;
}

const CASES: Case[] = [
  {
    name: 'allow',
    call: {
      tool_name: 'crm.update',
      arguments: { customerId: 'c-1001', phone: '+44 20 7946 0958' },
      region: 'EU',
      department: 'finance',
      trigger_prompt: 'Update the phone number of customer c-1001.',
    },
    context: {
      tool: 'crm.update',
      region: 'EU',
      department: 'finance',
      destination_region: '',
      path: '',
      spendCents: 0,
      remainingCents: 50000,
      callDepth: 0,
      custodyVerified: false,
    },
  },
  {
    name: 'denyRegion',
    call: {
      tool_name: 'crm.update',
      arguments: { customerId: 'c-1001' },
      region: 'US',
      department: 'finance',
    },
    context: {
      tool: 'crm.update',
      region: 'US',
      department: 'finance',
      destination_region: '',
      path: '',
      spendCents: 0,
      remainingCents: 50000,
      callDepth: 0,
      custodyVerified: false,
    },
  },
  {
    name: 'denyBudget',
    call: {
      tool_name: 'payments.transfer',
      arguments: { to: 'acct-9', amount: 750 },
      spend_amount: 750,
      region: 'EU',
      department: 'finance',
    },
    context: {
      tool: 'payments.transfer',
      region: 'EU',
      department: 'finance',
      destination_region: '',
      path: '',
      spendCents: 75000,
      remainingCents: 50000,
      callDepth: 0,
      custodyVerified: false,
    },
  },
];

const suite: BenchSuite = {
  name: 'cloud-policy',
  description: 'pentagon evaluateToolCall alone vs Cedar (cedar-wasm) on an equivalent policy',
  oneCore: true,
  async run(ctx) {
    const pentagon = (await import(new URL('cloud/dist/pentagon/index.js', root).href)) as PentagonModule;
    const policyModule = (await import(new URL('cloud/dist/policy/index.js', root).href)) as PolicyModule;
    const yaml = readFileSync(fileURLToPath(new URL('cloud/policies/example.yaml', root)), 'utf8');
    const policy = policyModule.loadPolicy(yaml, 'example.yaml');
    const trust = TrustStore.fromDocument({ keys: [trustEntryFor(generateEd25519().publicKey, 'custody')] });
    const agent = { agentId: 'agent-7', lobeName: 'lobe-7', domain: 'FINANCE', tenantId: 't1' };
    const ledger = { budgetLimit: 1000, spentInWindow: 300, reservedInWindow: 200, windowMs: 3_600_000 };

    const parsed = cedar.preparsePolicySet('example', { staticPolicies: CEDAR_POLICIES });
    if (parsed.type !== 'success') throw new Error(`cedar: ${JSON.stringify(parsed.errors)}`);

    const rows: LatencyStats[] = [];
    const targets = [];
    const iterations = ctx.size(20_000, 400);
    for (const c of CASES) {
      const input = {
        call: { lobe_name: 'lobe-7', ...c.call },
        agent,
        policy,
        ledger,
        history: [],
        trust,
        nowMs: 1_760_000_000_000,
      };
      const ours = pentagon.evaluateToolCall(input).status;
      const request = {
        principal: { type: 'Agent', id: 'agent-7' },
        action: { type: 'Action', id: 'invoke' },
        resource: { type: 'Tool', id: String(c.context.tool) },
        context: c.context,
        preparsedPolicySetId: 'example',
        entities: [],
      };
      const theirs = cedar.statefulIsAuthorized(request);
      if (theirs.type !== 'success') throw new Error(`cedar: ${JSON.stringify(theirs.errors)}`);
      ctx.log(`${c.name}: pentagon ${ours}, cedar ${theirs.response.decision}`);
      if ((ours === 'ALLOW') !== (theirs.response.decision === 'allow')) {
        throw new Error(
          `${c.name}: the two engines disagree (pentagon ${ours}, cedar ${theirs.response.decision})`,
        );
      }
      const p = ctx.measureSync(`pentagon.${c.name}`, () => pentagon.evaluateToolCall(input), { iterations });
      const q = ctx.measureSync(`cedar.${c.name}`, () => cedar.statefulIsAuthorized(request), { iterations });
      rows.push(p, q);
      targets.push(
        target(
          `pentagon p50 / cedar p50 (${c.name})`,
          Math.round((p.p50Us / q.p50Us) * 100) / 100,
          '<=',
          1,
          '×',
        ),
      );
    }
    return {
      suite: 'cloud-policy',
      ...sectionOf(rows, {
        targets,
        notes: [
          'cedar: statefulIsAuthorized on a pre-parsed set of 14 forbid rules + 1 permit (every rule of ' +
            'example.yaml Cedar can express), precomputed facts in context (no entities), allow/deny only',
          'pentagon: full evaluateToolCall on the raw call — the same rules plus the injection screen of ' +
            'every string and key, 5 SHA-256 digests (commitment, fingerprints), plain-JSON check, metabolic ' +
            'ledger and the explained verdict; Cedar does a subset of this work',
        ],
      }),
    };
  },
};
export default suite;
