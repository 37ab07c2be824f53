/** Every route of the control plane; one file per route group. */
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { registerAgentgateRegister } from './agentgate-register.js';
import { registerAgentgatePropose } from './agentgate-propose.js';
import { registerAgentgateSchema } from './agentgate-schema.js';
import { registerAuditRoutes } from './audit.js';
import { registerHealth } from './health.js';
import { registerKeys } from './keys.js';
import { registerOpenApi } from './openapi.js';
import { registerProofs } from './proofs.js';
import { registerSelfCorrect } from './selfcorrect.js';

export function registerRoutes(app: FastifyInstance, cloud: CloudContext): void {
  registerHealth(app);
  registerOpenApi(app);
  registerAgentgateRegister(app, cloud);
  registerAgentgatePropose(app, cloud);
  registerAgentgateSchema(app);
  registerSelfCorrect(app, cloud);
  registerKeys(app, cloud);
  registerProofs(app, cloud);
  registerAuditRoutes(app, cloud);
}
