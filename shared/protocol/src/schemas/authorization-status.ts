/**
 * The outcome of a proposal. ALLOW and DENY are final; REQUIRE_HUMAN waits for an approval before it can
 * execute; HELD_FOR_VETO executes when its hold expires unless a human vetoes it first (ARCHITECTURE.md §3 CONSENT).
 */
import { type Static, Type } from '@sinclair/typebox';

export const AUTHORIZATION_STATUSES = ['ALLOW', 'DENY', 'REQUIRE_HUMAN', 'HELD_FOR_VETO'] as const;

export const AuthorizationStatusSchema = Type.Union(AUTHORIZATION_STATUSES.map((s) => Type.Literal(s)));
export type AuthorizationStatus = Static<typeof AuthorizationStatusSchema>;
