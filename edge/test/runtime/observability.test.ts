import { Writable } from 'node:stream';
import t from 'tap';
import { EdgeMetrics } from '../../src/observability/edge-metrics.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { startObservabilityServer } from '../../src/observability/observability-server.js';
import { sampleVerdict } from './helpers/verdicts.js';

/** A pino destination that keeps every line in memory. */
function captureLines(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

t.test('secrets never appear in log output', async (t) => {
  const capture = captureLines();
  const log = createEdgeLogger({ destination: capture.stream, bindings: { robotId: 'r1' } });
  const hmacKey = 'hmac-key-bytes-5f1c0ffee';
  const password = 'broker-password-4af2';
  const token = 'bearer-token-99aa';
  log.info({ hmacKey, password }, 'starting');
  log.info(
    { options: { mqtt: { username: 'edge', password }, hmacKey: { kid: 'k1', key: hmacKey } } },
    'config',
  );
  log.warn({ request: { headers: { authorization: token } }, token }, 'auth');
  log.error({ user: { passwordHash: 'scrypt$14$8$1$xx$yy' } }, 'user table');
  const text = capture.text();
  for (const secret of [hmacKey, password, token, 'scrypt$14$8$1$xx$yy']) {
    t.notOk(text.includes(secret), `${secret} is not in the log`);
  }
  t.match(text, /"hmacKey":"\[redacted\]"/, 'the field is kept, its value censored');
  t.match(text, /"username":"edge"/, 'ordinary fields stay readable');
  t.match(text, /"robotId":"r1"/, 'bindings appear on every line');
  t.equal(text.trim().split('\n').length, 4);
});

t.test('/metrics counts verdicts per vertex, rejections, commands and latency', async (t) => {
  const metrics = new EdgeMetrics();
  metrics.recordVerdict(sampleVerdict(1, 'vetoed'));
  metrics.recordVerdict(sampleVerdict(2, 'signed'));
  metrics.recordVerdict(sampleVerdict(3, 'signed'));
  metrics.recordRejectedInput('telemetry', 'malformed-json: expected JSON, got …');
  metrics.recordRejectedInput('intent', 'schema');
  metrics.recordCommandPublished('stop');
  metrics.observeTrapAndSign(42e-6);
  metrics.setOutboxBacklog(7);
  let healthy = true;
  const server = await startObservabilityServer({
    port: 0,
    metrics,
    health: () => ({ healthy, checks: { mqtt: healthy ? 'connected' : 'disconnected' } }),
  });
  t.teardown(() => server.close());

  const res = await fetch(`${server.url}/metrics`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/plain/);
  const body = await res.text();
  t.match(body, /pentagate_edge_verdicts_total\{outcome="signed"\} 2/);
  t.match(body, /pentagate_edge_gate_verdicts_total\{vertex="RISK",outcome="failed"\} 1/);
  t.match(body, /pentagate_edge_gate_verdicts_total\{vertex="RISK",outcome="passed"\} 2/);
  t.match(body, /pentagate_edge_rejected_inputs_total\{input="telemetry",reason="malformed-json"\} 1/);
  t.match(body, /pentagate_edge_commands_published_total\{kind="stop"\} 1/);
  t.match(body, /pentagate_edge_trap_and_sign_seconds_bucket\{le="0.00005"\} 1/);
  t.match(body, /pentagate_edge_outbox_records 7/);

  const ok = await fetch(`${server.url}/healthz`);
  t.equal(ok.status, 200);
  t.same(await ok.json(), { status: 'ok', checks: { mqtt: 'connected' } });
  healthy = false;
  const down = await fetch(`${server.url}/healthz`);
  t.equal(down.status, 503, 'an unhealthy node answers 503');
  t.same(await down.json(), { status: 'unhealthy', checks: { mqtt: 'disconnected' } });

  t.equal((await fetch(`${server.url}/other`)).status, 404);
  t.equal((await fetch(`${server.url}/metrics`, { method: 'POST' })).status, 405);
});

t.test('rejection reasons are bounded label values', async (t) => {
  const metrics = new EdgeMetrics();
  for (let i = 0; i < 100; i++) metrics.recordRejectedInput('telemetry', `reason-${i}`);
  const body = await metrics.render();
  t.equal(body.match(/pentagate_edge_rejected_inputs_total\{/g)?.length, 65, '64 distinct reasons + other');
  t.match(body, /reason="other"\} 36/);
});

t.test('a taken metrics port says which option to change', async (t) => {
  const metrics = new EdgeMetrics();
  const first = await startObservabilityServer({
    port: 0,
    metrics,
    health: () => ({ healthy: true, checks: {} }),
  });
  t.teardown(() => first.close());
  await t.rejects(
    startObservabilityServer({ port: first.port, metrics, health: () => ({ healthy: true, checks: {} }) }),
    { code: 'PORT_IN_USE', message: `port ${first.port} is in use: pass --metrics-port with another port` },
  );
});
