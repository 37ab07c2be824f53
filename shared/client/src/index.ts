/**
 * @pentagate/client: GovClient for the Pentagate kernel (authorize / execute / replay / audit events).
 * No runtime dependencies: `fetch` only, so it runs in Node 20 and in browsers.
 */
export * from './errors.js';
export {
  GovClient,
  type GovClientOptions,
  type CallOptions,
  type ExecuteRequest,
} from './gov-client.js';
export type { FetchLike } from './transport.js';
export * from './types.js';
