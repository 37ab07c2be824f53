/**
 * @pentagate/verifier: offline checks of Pentagate's signed artifacts against a trust file. No network,
 * and no clock unless the caller passes a time. Each function returns a VerificationReport; input that
 * cannot be read as the artifact throws InvalidInputError (the CLI's exit 2).
 */
export * from './report.js';
export { MAX_INPUT_BYTES, readInputBytes, readInputJson, readInputText } from './input-files.js';
export { parseAtOption, parseIsoMs } from './time.js';
export { type ProofPacketOptions, verifyProofPacket } from './proof-packet.js';
export type { DecisionCheckOptions } from './decision-checks.js';
export { type TokenCheckOptions, tokenFromFileText, verifyGovernanceToken } from './governance-token.js';
export {
  type CheckpointCheckOptions,
  verifyCheckpointNote,
  verifyCheckpointNote as verifyCheckpointFile,
} from './checkpoint.js';
export { type InclusionFile, InclusionFileSchema, verifyInclusionFile } from './inclusion.js';
export { type ConsistencyFile, ConsistencyFileSchema, verifyConsistencyFile } from './consistency.js';
export { type AuditKitOptions, KIT_FILES, verifyAuditKit } from './audit-kit.js';
export { ROLES_BY_PAYLOAD_TYPE } from './entry-envelopes.js';
export { ConsentGrantsCheck } from './consent-grants.js';
export {
  type MotorCommandCheckOptions,
  verifyMotorCommand,
  verifyMotorCommand as verifyMotorCommandFile,
} from './motor-command.js';
export { type ConsentCheckOptions, verifyConsentToken } from './consent-token.js';
export { loadTrustFile } from './cli/common.js';
