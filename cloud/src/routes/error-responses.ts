/** The error body schema, attached to each route's 4xx responses so the OpenAPI document shows them. */
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
