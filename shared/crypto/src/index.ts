/**
 * @pentagate/crypto: hashing, the motor-command MAC and its acceptance function, Ed25519 DSSE
 * envelopes and trust stores, RFC 6962 Merkle trees, C2SP signed-note checkpoints and key files.
 */
export * from './errors.js';
export * from './hash.js';
export * from './timing-safe-equal.js';
export * from './key-id.js';
export * from './command-mac.js';
export * from './motor-command-acceptance.js';
