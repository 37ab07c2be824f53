// The multi-machine shape, started for real: `docker-compose.yml` with PostgreSQL, Mosquitto (the shipped ACL),
// two cloud replicas behind nginx, an edge and the simulated robot as separate containers on their own networks.
// Checked from outside (the host), then broken on purpose: a cloud replica killed under load, the edge cut off
// from the broker, PostgreSQL restarted. Run with `npm run test:compose` (not part of `npm test`: it builds
// images and takes minutes); deploy/README.md gives the set-up and the measured time.
import t from 'tap';
import { type ComposeProject, openProject, runScript, waitFor } from './compose-harness.js';
import {
  type CloudAccess,
  createTenant,
  decisionIsStored,
  kernelAuthorize,
  propose,
  register,
} from './cloud-calls.js';

const project: ComposeProject = await openProject(`pgcompose${process.pid}`);
const base = `http://127.0.0.1:${project.httpPort}`;

t.before(async () => {
  if (process.env.PENTAGATE_COMPOSE_SKIP_BASE_IMAGES !== '1') await runScript('deploy/base-images/build.sh');
  await runScript('deploy/make-secrets.sh');
  await project.compose(['build', '-q'], { timeoutMs: 1_200_000 });
  await project.compose(['up', '-d'], { timeoutMs: 600_000 });
});
t.teardown(async () => {
  if (process.env.PENTAGATE_COMPOSE_KEEP === '1') return;
  await project.compose(['down', '-v', '--remove-orphans'], { timeoutMs: 300_000 }).catch(() => {});
});

let access: CloudAccess;

t.test('the load balancer answers once both replicas are healthy', async (t) => {
  const status = await waitFor(
    'the load balancer',
    async () => {
      const r = await fetch(`${base}/healthz`).catch(() => undefined);
      return r?.ok ? r.status : undefined;
    },
    180_000,
  );
  t.equal(status, 200);
  access = await createTenant(project, base);
  t.match(access.agentKey, /^pgk_/, 'an agent key was issued inside a replica');
});

t.test('agent routes work through the load balancer, on either replica', async (t) => {
  const registered = await register(access);
  t.type(registered.lobe_name, 'string');
  t.type(registered.propose_endpoint, 'string');
  const verdict = await propose(access, registered.lobe_name, 'compose-call-1', 5);
  t.equal(verdict.approved, true, `propose approved: ${JSON.stringify(verdict.violations)}`);
  t.type(verdict.governance_token, 'string');
  const denied = await propose(access, registered.lobe_name, 'compose-call-2', 5, 'shell.exec');
  t.equal(denied.approved, false, 'a denied tool is refused through the same path');
  t.ok(denied.violations.length > 0);
});

t.test('exactly one execute wins across the replicas', async (t) => {
  const proposalId = await kernelAuthorize(access, 'compose-exactly-once');
  const attempts = await Promise.all(
    Array.from({ length: 24 }, () =>
      fetch(`${base}/api/v1/kernel/execute`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access.agentKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ proposalId }),
      }).then((r) => r.status),
    ),
  );
  t.equal(attempts.filter((s) => s === 200).length, 1, `statuses ${attempts.join(',')}`);
  t.equal(attempts.filter((s) => s === 409).length, 23, 'every other attempt is a double execution');
});

t.test('the edge gates the simulated robot', async (t) => {
  const logs = await waitFor(
    'signed commands and a STOP in the simulator log',
    async () => {
      const text = await project.logs('simulator');
      return /SIGNED/.test(text) && /STOPPED|VETOED/.test(text) ? text : undefined;
    },
    240_000,
    2000,
  );
  t.match(
    logs,
    /SIGNED\s+\S+\s+seq \d+/,
    'the edge signed motion commands the simulated controller received',
  );
  t.match(logs, /VETOED|STOPPED/, 'and refused or stopped when the visitor walked in');
});

t.test("the edge's audit records reach the cloud through the load balancer", async (t) => {
  const tenant = (
    await project.compose([
      'run',
      '--rm',
      '--no-deps',
      '-T',
      '--entrypoint',
      'cat',
      'fleet-enroll',
      '/fleet/tenant-id',
    ])
  ).trim();
  t.match(tenant, /\S/, 'fleet-enroll wrote the tenant that owns the robot');
  const auditorKey = (
    JSON.parse(
      await project.pentagate('cloud-a', [
        'cloud',
        'apikey',
        'issue',
        '--tenant',
        tenant,
        '--scope',
        'auditor',
        '--db',
        'postgres://pentagate@postgres:5432/pentagate',
        '--json',
      ]),
    ) as { key: string }
  ).key;
  const count = await waitFor(
    'edge records in the cloud audit log',
    async () => {
      const r = await fetch(`${base}/api/v1/kernel/audit/events?type=edge.verdict&limit=50`, {
        headers: { authorization: `Bearer ${auditorKey}` },
      });
      if (!r.ok) throw new Error(`audit events answered ${r.status}: ${await r.text()}`);
      const page = (await r.json()) as { events: unknown[] };
      return page.events.length > 0 ? page.events.length : undefined;
    },
    120_000,
    2000,
  );
  t.ok(count > 0, `${count} edge.verdict entries in the tenant's audit log`);
});

t.test('fault: a cloud replica killed under load loses no acknowledged decision', async (t) => {
  const lobe = (await register(access)).lobe_name;
  const acknowledged = new Map<string, string>();
  const statuses = new Map<number, number>();
  let killed = false;
  const worker = async (w: number) => {
    for (let i = 0; i < 40; i++) {
      const id = `kill-${w}-${i}`;
      if (w === 0 && i === 10 && !killed) {
        killed = true;
        await project.compose(['kill', 'cloud-a']);
      }
      const r = await propose(access, lobe, id, 1).catch(() => undefined);
      const status = r?.httpStatus ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (r?.httpStatus === 200 && r.decision_id) acknowledged.set(id, r.decision_id);
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  t.ok(killed);
  t.ok(
    acknowledged.size > 100,
    `${acknowledged.size} acknowledged (statuses ${JSON.stringify([...statuses])})`,
  );
  t.notOk(
    [...statuses.keys()].some((s) => s >= 500 && s !== 502 && s !== 503),
    'only gateway errors while failing over',
  );
  const missing: string[] = [];
  for (const [id, decisionId] of acknowledged)
    if (!(await decisionIsStored(access, lobe, id, decisionId))) missing.push(id);
  t.same(missing, [], 'every acknowledged decision is answered again, unchanged, by the surviving replica');
  await project.compose(['start', 'cloud-a']);
});

t.test(
  'fault: the edge cut off from the broker — the robot stops moving, and resumes on reconnect',
  async (t) => {
    const edge = await project.container('edge');
    const network = `${project.name}_field`;
    await project.docker(['network', 'disconnect', network, edge]);
    // What was in flight at the cut may still land; from 1.5 s on (above the profile's freshness budget and the
    // commands' validity) nothing signed may reach the robot, and its next round must miss its moves.
    await new Promise((r) => setTimeout(r, 1500));
    const from = (await project.logs('simulator')).length;
    const cutOff = await waitFor(
      'a full scenario round without the edge',
      async () => {
        const text = (await project.logs('simulator')).slice(from);
        return /— round \d+: \d+ expectation\(s\) failed/.test(text) ? text : undefined;
      },
      60_000,
      1000,
    );
    t.notMatch(cutOff, /SIGNED/, 'no signed command reached the robot while its edge was cut off');
    t.match(cutOff, /expectation\(s\) failed: .*executed/, 'the round reports its moves were not executed');
    await project.docker(['network', 'connect', network, edge]);
    const afterReconnect = (await project.logs('simulator')).length;
    const resumed = await waitFor(
      'signed commands after the reconnect',
      async () => {
        const text = (await project.logs('simulator')).slice(afterReconnect);
        return /SIGNED/.test(text) ? text : undefined;
      },
      120_000,
      2000,
    );
    t.match(resumed, /SIGNED/, 'the edge gates again once the broker is back');
  },
);

t.test('fault: PostgreSQL restarted — 503 meanwhile, never a wrong answer, then recovery', async (t) => {
  const lobe = (await register(access)).lobe_name;
  const seen = new Map<number, number>();
  let stop = false;
  let n = 0;
  const poll = (async () => {
    while (!stop) {
      const r = await propose(access, lobe, `pg-restart-${n++}`, 1).catch(() => undefined);
      const status = r?.httpStatus ?? 0;
      seen.set(status, (seen.get(status) ?? 0) + 1);
      if (r?.httpStatus === 200) t.equal(typeof r.approved, 'boolean');
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  await project.compose(['restart', 'postgres'], { timeoutMs: 120_000 });
  const recovered = await waitFor(
    'an approved propose after the restart',
    async () => {
      const r = await propose(access, lobe, `pg-after-${Date.now()}`, 1).catch(() => undefined);
      return r?.httpStatus === 200 && r.approved ? r : undefined;
    },
    120_000,
    1000,
  );
  stop = true;
  await poll;
  t.ok(recovered.approved, 'answers again after PostgreSQL is back');
  const wrong = [...seen.keys()].filter((s) => s !== 200 && s !== 503 && s !== 502);
  t.same(wrong, [], `only 200 and 503 during the restart (seen ${JSON.stringify([...seen])})`);
});
