/**
 * tier1 `zkInference`. The name comes from the product specification; what is computed is a SHA-256
 * commitment, NOT a zero-knowledge proof. It binds the model id, the trigger prompt and the arguments so
 * that anyone who later holds them can show these were the inputs governed. It is binding but not
 * hiding (no salt: the verdict must be reproducible on replay), and it proves nothing about inference.
 */
import type { ZkInferenceTier } from '@pentagate/protocol';
import { jcsSha256Hex, sha256HexOfText } from '../digest.js';
import { jsonSafe } from '../json-safe.js';
import type { GovernedAction } from '../types.js';

export const ZK_INFERENCE_NOTE =
  'SHA-256 commitment to model id, prompt and arguments (binding, not hiding); not a zero-knowledge proof.';

/** `safeArguments`: `jsonSafe(action.arguments).value`, computed once per evaluation by the caller. */
export function zkInferenceTier(action: GovernedAction, safeArguments: unknown): ZkInferenceTier {
  const modelId = action.modelId ?? 'unspecified';
  // String(): a non-string prompt from a library caller is hashed as its string form, as TextEncoder would.
  const promptDigest = sha256HexOfText(String(jsonSafe(action.triggerPrompt ?? '').value));
  const argumentsDigest = jcsSha256Hex(safeArguments);
  const agentVersion = action.agentVersion;
  const committed =
    agentVersion === undefined
      ? { v: 1, modelId, promptDigest, argumentsDigest }
      : { v: 1, modelId, agentVersion, promptDigest, argumentsDigest };
  const tier: ZkInferenceTier = {
    passed: true,
    scheme: 'sha256-commitment',
    zeroKnowledge: false,
    commitment: jcsSha256Hex(committed),
    modelId,
    promptDigest,
    argumentsDigest,
    note: ZK_INFERENCE_NOTE,
  };
  if (agentVersion !== undefined) tier.agentVersion = agentVersion;
  return tier;
}
