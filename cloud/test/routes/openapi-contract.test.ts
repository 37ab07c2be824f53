/**
 * /openapi.json against what the routes really answer, as a client generated from it would read them:
 * the schema route (specification §4: "GET /api/v1/agentgate/schema → the schema of the adapter")
 * documents its 200 body, and selfcorrect's 403 is either the veto brief (specification §7) or the error
 * body every route answers with (a key of the wrong scope: SCOPE_FORBIDDEN) — before, the document listed
 * no 200 for the schema route and only the veto for selfcorrect's 403, so a generated client rejected the
 * one and misread the other.
 */
import t from 'tap';
import { agentgateSchemaDocument } from '../../src/routes/agentgate-schema.js';
import { DEFAULT_KERNEL_SETTINGS } from '../../src/kernel/kernel-settings.js';
import { bearer } from '../helpers/cloud-app.js';
import { kernelCloud } from '../kernel/kernel-helpers.js';

interface Shape {
  required?: string[];
  anyOf?: Shape[];
  oneOf?: Shape[];
  properties?: { type?: { enum?: string[] } };
}
interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: { 'application/json': { schema: Shape } } }> }>
  >;
}

t.test('the schema route documents its 200 body, and still sends the whole document', async (t) => {
  const cloud = await kernelCloud(t);
  const doc: OpenApi = (await cloud.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const ok = doc.paths['/api/v1/agentgate/schema']!.get!.responses['200'];
  t.ok(ok, 'a 200 response is documented');
  if (!ok) return;
  const schema = ok.content['application/json'].schema;
  t.same(
    [...(schema.required ?? [])].sort(),
    Object.keys(agentgateSchemaDocument(DEFAULT_KERNEL_SETTINGS)).sort(),
    'every top-level member is named',
  );
  const res = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/agentgate/schema',
    headers: bearer(cloud.a.keys.agent),
  });
  t.equal(res.statusCode, 200);
  t.same(
    res.json(),
    JSON.parse(JSON.stringify(agentgateSchemaDocument(DEFAULT_KERNEL_SETTINGS))),
    'nothing dropped by the serializer',
  );
});

t.test(
  "selfcorrect's 403 is documented as the veto brief, or the brief with the error body (both sent as documented: selfcorrect-403-schema.test.ts)",
  async (t) => {
    const cloud = await kernelCloud(t);
    const doc: OpenApi = (await cloud.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const forbidden =
      doc.paths['/api/v1/selfcorrect']!.post!.responses['403']!.content['application/json'].schema;
    const shapes: Shape[] = forbidden.anyOf ?? forbidden.oneOf ?? [forbidden];
    t.ok(
      shapes.some((s) => s.properties?.type?.enum?.[0] === 'SERVICE_GOVERNANCE_VETO'),
      'the veto brief',
    );
    t.ok(
      shapes.some(
        (s) => s.required?.includes('error') && s.properties?.type?.enum?.[0] === 'SERVICE_GOVERNANCE_VETO',
      ),
      'a refusal: the brief with the error body beside it',
    );
  },
);
