/**
 * The platform's routes; one file per route group. The routes that decide (agentgate propose,
 * selfcorrect, kernel, approvals) are registered with the kernel that serves them (register-kernel.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { registerAgentgateRegister } from './agentgate-register.js';
import { registerAuditRoutes } from './audit.js';
import { registerHealth } from './health.js';
import { registerKeys } from './keys.js';
import { registerOpenApi } from './openapi.js';
import { registerProofs } from './proofs.js';

export function registerRoutes(
  app: FastifyInstance,
  cloud: CloudContext,
  options: { publicUrl?: URL | undefined } = {},
): void {
  registerHealth(app);
  registerOpenApi(app);
  registerAgentgateRegister(app, cloud, options.publicUrl);
  registerKeys(app, cloud);
  registerProofs(app, cloud);
  registerAuditRoutes(app, cloud);
}
