/** Tenant policies: the YAML schema, the loader and the compiled form the pentagon evaluates. */
export * from './policy-schema.js';
export * from './policy-error.js';
export * from './glob.js';
export * from './loaded-policy.js';
export * from './load-policy.js';
