/**
 * Route validation with the TypeBox compiler (the same `schemaIssues` every package uses) instead of
 * fastify's default Ajv setup, which coerces types ("5" → 5) and silently strips unknown properties — both
 * wrong for a gate that signs what it saw. Every problem is listed in `details.issues` with its JSON Pointer.
 */
import { schemaIssues } from '@pentagate/protocol';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ApiError, type ApiErrorCode } from './errors.js';

const CODE_BY_PART: Record<string, ApiErrorCode> = {
  body: 'INVALID_BODY',
  querystring: 'INVALID_QUERY',
  params: 'INVALID_PARAMS',
  headers: 'INVALID_HEADERS',
};

const WHAT_BY_PART: Record<string, string> = {
  body: 'request body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

export function registerSchemaValidator(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart ?? 'body';
    const code = CODE_BY_PART[part] ?? 'INVALID_BODY';
    const what = WHAT_BY_PART[part] ?? part;
    return (data: unknown) => {
      const issues = schemaIssues(schema as TSchema, data);
      if (issues.length === 0) return { value: data };
      const shown = issues.slice(0, 3).map((i) => `${i.path || '/'}: ${i.message}`);
      const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
      return { error: new ApiError(code, `${what}: ${shown.join('; ')}${more}`, { issues }) };
    };
  });
  // Responses are serialised as plain JSON: the response schemas document the API (OpenAPI), they do not
  // filter what goes out.
  app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data));
}

export type { FastifySchema };
