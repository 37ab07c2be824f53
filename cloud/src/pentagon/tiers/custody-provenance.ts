/**
 * PROVENANCE for data arguments (ARCHITECTURE.md §3): each custody attestation on the call must verify as a
 * DSSE envelope of payloadType `application/vnd.pentagate.custody+json`, signed by a key of role `custody`
 * valid at evaluation time; each argument the policy names for this tool needs a verified attestation
 * whose `dataDigest` is the SHA-256 of the argument's JCS form. An envelope that does not verify is a
 * violation even where none is required: a call must not carry forged custody.
 */
import { type TrustStore, dsseVerifyStatement } from '@pentagate/crypto';
import { CustodyAttestationSchema, PAYLOAD_TYPES, type ProofFirewallTier } from '@pentagate/protocol';
import { matchesTool } from '../../policy/tool-name-forms.js';
import { jcsSha256Hex } from '../digest.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { jsonSafe } from '../json-safe.js';
import { oneLine } from '../one-line.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';

export interface ProvenanceResult {
  provenance: ProofFirewallTier['provenance'];
  findings: RuleFinding[];
}

export function custodyProvenance(
  policy: LoadedPolicy,
  action: GovernedAction,
  trust: TrustStore,
  nowMs: number,
): ProvenanceResult {
  const findings: RuleFinding[] = [];
  const verified: ProofFirewallTier['provenance']['verified'] = [];
  const failures: string[] = [];
  action.dataProvenance.forEach((envelope, i) => {
    try {
      const { statement, keyid } = dsseVerifyStatement(envelope, trust, CustodyAttestationSchema, {
        role: 'custody',
        atMs: nowMs,
        payloadType: PAYLOAD_TYPES.custody,
      });
      verified.push({
        keyid,
        dataDigest: statement.dataDigest,
        source: statement.source,
        custodian: statement.custodian,
      });
    } catch (err) {
      const why = oneLine(err instanceof Error ? err.message : String(err), 300);
      failures.push(`data_provenance[${i}]: ${why}`);
      findings.push(
        finding(
          'PROVENANCE.CUSTODY_UNVERIFIED',
          `data_provenance[${i}] does not verify: ${why}`,
          `re-obtain data_provenance[${i}] from a custodian whose custody key the tenant trusts, or drop it`,
          'tier2.proofFirewall/custody',
        ),
      );
    }
  });
  const digests = new Set(verified.map((v) => v.dataDigest));
  const requiredFor: string[] = [];
  for (const rule of policy.provenance) {
    if (!matchesTool(rule.tools, action.toolName)) continue;
    for (const name of rule.arguments) {
      if (!requiredFor.includes(name)) requiredFor.push(name);
      const value = action.arguments[name];
      const digest = value === undefined ? undefined : jcsSha256Hex(jsonSafe(value).value);
      if (digest !== undefined && digests.has(digest)) continue;
      findings.push(
        finding(
          'PROVENANCE.CUSTODY_MISSING',
          value === undefined
            ? `argument "${name}" is required by rule ${rule.id} for ${action.toolName} but absent`
            : `argument "${name}" (sha256 ${digest}) has no verified custody attestation (rule ${rule.id})`,
          `attach to data_provenance a custody attestation for argument "${name}" with dataDigest = SHA-256 of its JCS form${digest ? ` (${digest})` : ''}`,
          `tier2.proofFirewall/${rule.id}`,
        ),
      );
    }
  }
  return { provenance: { requiredFor, verified, failures }, findings };
}
