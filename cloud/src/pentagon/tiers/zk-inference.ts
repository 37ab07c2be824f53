/**
 * tier1 `zkInference`. The name comes from the product specification; what is computed is a SHA-256
 * commitment, NOT a zero-knowledge proof. It binds the model id, the trigger prompt and the arguments so
 * that anyone who later holds them can show these were the inputs governed. It is binding but not
 * hiding (no salt: the verdict must be reproducible on replay), and it proves nothing about inference.
 */
import { jcsDigestHex, sha256Hex } from '@pentagate/crypto';
import type { ZkInferenceTier } from '@pentagate/protocol';
import { jsonSafe } from '../json-safe.js';
import type { GovernedAction } from '../types.js';

export const ZK_INFERENCE_NOTE =
  'SHA-256 commitment to model id, prompt and arguments (binding, not hiding); not a zero-knowledge proof.';

export function zkInferenceTier(action: GovernedAction): ZkInferenceTier {
  const modelId = action.modelId ?? 'unspecified';
  const promptDigest = sha256Hex(jsonSafe(action.triggerPrompt ?? '').value as string);
  const argumentsDigest = jcsDigestHex(jsonSafe(action.arguments).value);
  return {
    passed: true,
    scheme: 'sha256-commitment',
    zeroKnowledge: false,
    commitment: jcsDigestHex({ v: 1, modelId, promptDigest, argumentsDigest }),
    modelId,
    promptDigest,
    argumentsDigest,
    note: ZK_INFERENCE_NOTE,
  };
}
