/**
 * @pentagate/crypto: hashing, the motor-command MAC and its acceptance function, Ed25519 DSSE
 * envelopes and trust stores, RFC 6962 Merkle trees, C2SP signed-note checkpoints and key files.
 */
export * from './errors.js';
export * from './hash.js';
export * from './timing-safe-equal.js';
export * from './key-id.js';
export * from './context-mac.js';
export * from './command-mac.js';
export * from './sensor-frame-mac.js';
export * from './motor-command-acceptance.js';
export * from './ed25519.js';
export { ED25519_L, isCanonicalScalar } from './ed25519-key-rules.js';
export * from './dsse.js';
export * from './dsse-verify.js';
export * from './trust-store.js';
export * from './governance-token.js';
export { EMPTY_ROOT, MERKLE_HASH_BYTES, leafHash, nodeHash } from './merkle-hash.js';
export * from './merkle-tree.js';
export * from './merkle-verify.js';
export * from './signed-note.js';
export * from './checkpoint.js';
export * from './key-files.js';
export * from './key-file-mode.js';
