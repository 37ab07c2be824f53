/**
 * Fleet link wire schemas: edge audit records shipped to the cloud and the cloud's acknowledgement; the
 * command-history rule both the cloud's ingest and the offline verifier apply to those records.
 */
export * from './edge-record.js';
export * from './consent-request.js';
export * from './command-history.js';
export * from './verdict-consistency.js';
