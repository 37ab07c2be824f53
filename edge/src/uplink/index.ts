/** The fleet uplink: the edge's link to the cloud (audit shipping), started beside the gate. */
export * from './audit-shipper.js';
export * from './cloud-link.js';
export * from './start-uplink.js';
export * from './uplink-metrics.js';
export { ConsentRelay } from './consent-relay.js';
export { relayConsent, waitingConsents, type WaitingConsent, ConsentCloudError } from './operator-consent.js';
