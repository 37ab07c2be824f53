/** Fleet link wire schemas: edge audit records shipped to the cloud and the cloud's acknowledgement. */
export * from './edge-record.js';
export * from './consent-request.js';
