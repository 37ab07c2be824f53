/**
 * `GET /api/v1/approvals[?cursor=]` (the caller's tenant's pending HELD_FOR_VETO and REQUIRE_HUMAN proposals,
 * held ones first, a page at a time; kernel/approvals.ts) and
 * `POST /api/v1/approvals/:id/approve|deny|veto` with `{ actionDigest, comment? }`: operator scope; the
 * digest binds the decision to the exact action the operator reviewed. Robot moves waiting for consent
 * are listed beside them (`robotConsents`); those are granted with a token the operator signs with their
 * own key (cloud/src/fleet/consent-routes.ts), never by the server.
 */
import {
  ActionTypeSchema,
  IdentifierSchema,
  IsoTimestampSchema,
  ProposedActionSchema,
  type RobotConsentItem,
  RobotConsentItemSchema,
  Sha256HexSchema,
  textSchema,
  ViolationSchema,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../app/auth.js';
import { ROUTE_SCOPES } from '../../app/scopes.js';
import { CURSOR_PATTERN } from '../../kernel/approvals-cursor.js';
import { APPROVAL_VERBS, type ApprovalVerb, decideApproval, listApprovals } from '../../kernel/approvals.js';
import type { KernelContext } from '../../kernel/kernel-context.js';
import { PROPOSAL_STATES } from '../../store/kernel-store.js';
import { ERROR_RESPONSES } from '../error-responses.js';

export const ApprovalItemSchema = Type.Object(
  {
    id: IdentifierSchema,
    status: Type.Union([Type.Literal('REQUIRE_HUMAN'), Type.Literal('HELD_FOR_VETO')]),
    actionType: ActionTypeSchema,
    agentId: IdentifierSchema,
    actionDigest: Sha256HexSchema,
    action: ProposedActionSchema,
    createdAt: IsoTimestampSchema,
    expiresAt: IsoTimestampSchema,
    holdUntil: Type.Optional(IsoTimestampSchema),
    violations: Type.Array(ViolationSchema),
    remediation: Type.Optional(Type.String()),
    /** The API key that proposed it and the agent that key is bound to (null: unbound; the agent is a claim). */
    proposedBy: Type.Optional(
      Type.Object(
        { keyId: IdentifierSchema, boundAgent: Type.Union([Type.String(), Type.Null()]) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const ListSchema = Type.Object(
  {
    items: Type.Array(ApprovalItemSchema),
    /**
     * More proposals wait than `items` lists (held ones are listed first, soonest hold end first, then the
     * oldest waiting): `nextCursor` reads the next page.
     */
    moreItems: Type.Boolean(),
    /** Present when `moreItems`: `?cursor=` with it lists the items after this page. */
    nextCursor: Type.Optional(Type.String({ pattern: CURSOR_PATTERN })),
    robotConsents: Type.Array(RobotConsentItemSchema),
  },
  { additionalProperties: false },
);

/** The tenant's waiting robot consent requests. */
export type RobotConsentSource = (tenantId: string) => Promise<RobotConsentItem[]>;

export const ApprovalRequestSchema = Type.Object(
  { actionDigest: Sha256HexSchema, comment: Type.Optional(textSchema(512)) },
  { additionalProperties: false },
);

const OutcomeSchema = Type.Object(
  {
    id: IdentifierSchema,
    state: Type.Union(PROPOSAL_STATES.map((s) => Type.Literal(s))),
    auditIndex: Type.Integer({ minimum: 0 }),
    at: IsoTimestampSchema,
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ pattern: CURSOR_PATTERN, maxLength: 160 })) },
  { additionalProperties: false },
);

const Params = Type.Object({ id: IdentifierSchema }, { additionalProperties: false });

export function registerApprovals(
  app: FastifyInstance,
  k: KernelContext,
  robotConsents: RobotConsentSource = async () => [],
): void {
  app.get(
    '/api/v1/approvals',
    {
      config: { scopes: ROUTE_SCOPES.operator },
      schema: {
        summary:
          "The tenant's proposals waiting for an operator (REQUIRE_HUMAN) or in a veto hold, and robot moves waiting for consent",
        querystring: ListQuery,
        response: { 200: ListSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const tenantId = callerOf(request).tenantId;
      const { cursor } = request.query as { cursor?: string };
      const { items, more, nextCursor } = await listApprovals(k, tenantId, cursor);
      return {
        items,
        moreItems: more,
        ...(nextCursor === undefined ? {} : { nextCursor }),
        robotConsents: await robotConsents(tenantId),
      };
    },
  );
  for (const verb of APPROVAL_VERBS) {
    app.post(
      `/api/v1/approvals/:id/${verb}`,
      {
        config: { scopes: ROUTE_SCOPES.operator },
        schema: {
          summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a pending proposal, bound to its action digest`,
          params: Params,
          body: ApprovalRequestSchema,
          response: { 200: OutcomeSchema, ...ERROR_RESPONSES, 409: ERROR_RESPONSES[403] },
        },
      },
      async (request) => {
        const { id } = request.params as { id: string };
        const body = request.body as { actionDigest: string; comment?: string };
        return decideApproval(k, callerOf(request), id, verb as ApprovalVerb, body);
      },
    );
  }
}
