/** The error body schema, attached to each route's 4xx responses so the OpenAPI document shows them. */
import type { SwaggerTransform } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';

export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'a code from cloud/src/app/errors.ts (API_ERRORS)' }),
      message: Type.String(),
      details: Type.Optional(Type.Unknown()),
    }),
  },
  { description: 'Every error: { error: { code, message, details? } }' },
);

/** Standard error responses of a route that needs a key and takes input. */
export const ERROR_RESPONSES = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  413: ErrorResponseSchema,
  415: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/**
 * A route's `config.swaggerTransform` that puts `responses` into the OpenAPI document only, over the route's
 * own: for a body the serializer must not be given (it drops what a schema does not list) or a status
 * with two shapes (the serializer keeps the one the route itself sends).
 */
export function documentedResponses(responses: Record<number, unknown>): SwaggerTransform {
  return ({ schema, url }) => ({
    url,
    schema: { ...schema, response: { ...(schema.response as object), ...responses } },
  });
}
