// Quick checks of the compose shape that run in `npm test` without Docker: its structure, the files it mounts,
// and — most likely to rot — that every `pentagate …` command line in it parses against the real CLI (unknown
// options or missing arguments fail this test). Starting it for real is `npm run test:compose`
// (deploy/compose-test/), which needs a Docker engine.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { type Command, resolveCommandLine } from '@pentagate/protocol';

const root = join(import.meta.dirname, '../..');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  entrypoint?: string[];
  depends_on?: string[] | Record<string, unknown>;
  volumes?: string[];
  secrets?: string[];
}
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
};

/** The registry the root bin dispatches over (bin/commands.js), loaded as the CLI tests load it. */
async function allCommands(): Promise<Command[]> {
  return (await import('../../scripts/test/cli-registry.js')).cliCommands;
}

t.test('has the multi-machine shape of ARCHITECTURE.md §7', async (t) => {
  const names = Object.keys(compose.services);
  for (const want of ['postgres', 'mqtt', 'cloud-a', 'cloud-b', 'lb', 'edge', 'simulator'])
    t.ok(names.includes(want), want);
  t.equal(compose.services['cloud-a']?.command?.join(' '), compose.services['cloud-b']?.command?.join(' '));
  t.match(compose.services['cloud-a']?.command?.join(' '), /--db postgres:\/\//, 'replicas share PostgreSQL');
  t.match(
    compose.services.edge?.command?.join(' '),
    /--mqtt mqtt:\/\/mqtt:1883/,
    'edge uses the external broker',
  );
});

t.test('the Dockerfile copies every workspace manifest before npm ci', async (t) => {
  const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
  const workspaces = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
  ).workspaces;
  for (const w of workspaces) t.match(dockerfile, `COPY ${w}/package.json ${w}/`, w);
  t.ok(
    dockerfile.indexOf('RUN npm ci') < dockerfile.indexOf('COPY . .'),
    'dependencies install before sources',
  );
});

t.test('tiers sit on their own networks', async (t) => {
  const networks = (name: string) =>
    (compose.services[name] as { networks?: string[] } | undefined)?.networks ?? [];
  t.same(networks('postgres'), ['cloud'], 'the database is reachable from the cloud network only');
  t.notOk(networks('edge').includes('cloud'), 'the edge never reaches the database');
  t.ok(networks('edge').includes('field') && networks('edge').includes('uplink'));
  t.ok(networks('lb').includes('uplink'), 'the edge reaches the cloud through the load balancer');
});

t.test('every pentagate command line parses against the real CLI', async (t) => {
  const commands = await allCommands();
  // A service that overrides the entry point runs a script of the image instead (checked below).
  const pentagate = Object.entries(compose.services).filter(([, s]) => s.build && !s.entrypoint);
  for (const [name, service] of Object.entries(compose.services).filter(([, s]) => s.entrypoint)) {
    const script = service.entrypoint?.find((part) => part.startsWith('/app/'));
    t.ok(
      script && existsSync(join(root, script.replace('/app/', ''))),
      `${name}: ${script} is in the repository`,
    );
  }
  t.ok(pentagate.length >= 3, 'cloud replicas and edge run the pentagate image');
  for (const [name, service] of pentagate) {
    t.doesNotThrow(
      () => resolveCommandLine(service.command ?? [], commands),
      `${name}: ${service.command?.join(' ')}`,
    );
  }
});

t.test('dependencies, secrets and mounted files exist', async (t) => {
  const makeSecrets = readFileSync(join(root, 'deploy/make-secrets.sh'), 'utf8');
  for (const [name, service] of Object.entries(compose.services)) {
    const deps = Array.isArray(service.depends_on)
      ? service.depends_on
      : Object.keys(service.depends_on ?? {});
    for (const d of deps) t.ok(compose.services[d], `${name} depends on existing service ${d}`);
    for (const s of service.secrets ?? []) t.ok(compose.secrets[s], `${name}: secret ${s} is declared`);
    for (const v of service.volumes ?? []) {
      const source = v.split(':')[0]!;
      if (!source.startsWith('./')) {
        t.ok(source in compose.volumes, `${name}: named volume ${source} declared`);
      } else if (source.startsWith('./deploy/secrets/')) {
        t.ok(
          makeSecrets.includes(source.replace('./deploy/secrets/', '')),
          `${name}: make-secrets.sh creates ${source}`,
        );
      } else {
        t.ok(existsSync(join(root, source)), `${name}: ${source} exists`);
      }
    }
    if (service.build) t.ok(existsSync(join(root, service.build.dockerfile)), `${name}: Dockerfile exists`);
  }
  for (const [name, secret] of Object.entries(compose.secrets)) {
    const file = secret.file.replace('./deploy/secrets/', '');
    t.ok(makeSecrets.includes(file), `make-secrets.sh creates secret ${name} (${file})`);
  }
});

t.test('the mosquitto ACL gives each identity only its own robot topics', async (t) => {
  const acl = readFileSync(join(root, 'deploy/mosquitto.acl'), 'utf8');
  let user = '';
  const topics = acl.split('\n').filter((l) => l && !l.startsWith('#'));
  t.ok(topics.length > 5);
  for (const line of topics) {
    const [kw, ...rest] = line.trim().split(/\s+/);
    if (kw === 'user') {
      user = rest[0]!;
      continue;
    }
    t.equal(kw, 'topic');
    const [access, topic] = rest;
    const robot = user.replace(/^(edge|robot|sensor|operator)-/, '');
    t.match(topic, new RegExp(`^pentagate/v1/${robot}/`), `${user} ${access} ${topic}`);
    if (topic?.endsWith('/cmd') && access !== 'read')
      t.match(user, /^edge-/, 'only the edge writes commands');
    if (/\/telemetry\/proximity-/.test(topic ?? '') && access === 'write')
      t.match(user, /^sensor-/, 'only the sensor account writes the proximity sources');
  }
  // the simulated robot (the account that proposes moves) is denied them by name, beside its telemetry/+
  t.match(
    acl,
    /user robot-ur5e-01\n(?:topic .*\n)*topic deny pentagate\/v1\/ur5e-01\/telemetry\/proximity-front\n/,
  );
});
