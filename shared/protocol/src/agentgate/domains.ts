/**
 * The business domains an agent may register under (`POST /api/v1/agentgate/register`, field `domain`).
 * The list is closed so that policies and dashboards can rely on it; GENERAL is the catch-all. A new
 * domain is an additive change: existing values never change meaning.
 */
import { type Static, Type } from '@sinclair/typebox';

/** Each domain with what it covers; served by `GET /api/v1/agentgate/schema`. */
export const AGENT_DOMAINS = {
  FINANCE: 'payments, ledgers, trading, invoicing, treasury and accounting',
  HEALTHCARE: 'clinical records, scheduling, triage and other health data (PHI)',
  LEGAL: 'contracts, filings, discovery and legal research',
  OPERATIONS: 'infrastructure, deployments, IT administration and internal workflows',
  ROBOTICS: 'agents that plan or command physical machines (their motion goes through the edge node)',
  RESEARCH: 'literature search, data analysis and experiments',
  SUPPORT: 'customer service, ticketing and messaging with customers',
  SALES: 'CRM updates, outreach and quotes',
  HR: 'recruiting, employee records and payroll inputs (personal data)',
  SECURITY: 'security operations: triage, scanning and incident response',
  GENERAL: 'anything not covered above',
} as const;

export type AgentDomain = keyof typeof AGENT_DOMAINS;

/** The domain names in the documented order. */
export const AGENT_DOMAIN_NAMES = Object.keys(AGENT_DOMAINS) as AgentDomain[];

export const AgentDomainSchema = Type.Union(
  AGENT_DOMAIN_NAMES.map((d) => Type.Literal(d)),
  { description: 'One of AGENT_DOMAINS (FINANCE, HEALTHCARE, LEGAL, OPERATIONS, ROBOTICS, RESEARCH, …).' },
);
export type AgentDomainValue = Static<typeof AgentDomainSchema>;
