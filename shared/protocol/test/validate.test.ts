import t from 'tap';
import {
  AGENT_DOMAIN_NAMES,
  AgentDomainSchema,
  SetpointsSchema,
  ValidationError,
  conforms,
  schemaIssues,
  validate,
} from '@pentagate/protocol';

const twist = {
  kind: 'twist',
  linearMps: { x: 1, y: 0, z: 0 },
  angularRadS: { x: 0, y: 0, z: 0 },
  durationMs: 10,
};

t.test('a union error reports the closest variant, not "expected union value"', async (t) => {
  const bad = { ...twist, linearMps: { x: 1, y: 0, z: 'a' } };
  const err = t.throws(() => validate(SetpointsSchema, bad, 'setpoints')) as ValidationError;
  t.type(err, ValidationError);
  t.equal(err.issues[0]?.path, '/linearMps/z');
  t.match(err.message, /setpoints: \/linearMps\/z: expected number, got "a"/);
  t.notMatch(err.message, /union/);
  const joint = { kind: 'joint', jointNames: ['a'], points: [{ positionsRad: [1], timeFromStartMs: -1 }] };
  t.match(schemaIssues(SetpointsSchema, joint)[0], { path: '/points/0/timeFromStartMs' });
});

t.test(
  'a union error reports the variant its kind names, even when another has fewer problems',
  async (t) => {
    // Torques sent as strings: 2 points × 6 joints, more problems than the twist variant's missing members.
    const efforts = ['20', '60', '30', '5', '2', '1'];
    const point = (ms: number) => ({
      positionsRad: [0, 0, 0, 0, 0, 0],
      effortsNm: efforts,
      timeFromStartMs: ms,
    });
    const joint = { kind: 'joint', jointNames: ['a', 'b', 'c', 'd', 'e', 'f'], points: [point(5), point(9)] };
    const [first] = schemaIssues(SetpointsSchema, joint);
    t.same(first, { path: '/points/0/effortsNm/0', message: 'expected number, got "20"' });
  },
);

t.test('valid values pass and are returned as they are', async (t) => {
  t.equal(validate(SetpointsSchema, twist, 'setpoints'), twist);
  t.ok(conforms(SetpointsSchema, twist));
  t.notOk(conforms(SetpointsSchema, { kind: 'fly' }));
  t.same(schemaIssues(SetpointsSchema, twist), []);
});

t.test('long issue lists are summarised', async (t) => {
  const err = t.throws(() =>
    validate(SetpointsSchema, { kind: 'joint', jointNames: 7, points: 'x' }, 'sp'),
  ) as ValidationError;
  t.ok(err.issues.length >= 2);
  t.match(err.message, /^sp: /);
});

t.test('a value outside an enum is refused with the allowed values listed', async (t) => {
  const err = t.throws(() => validate(AgentDomainSchema, 'FINANZ', 'domain')) as Error;
  t.match(err.message, /expected one of "FINANCE", "HEALTHCARE", "LEGAL",.* got "FINANZ"/);
  for (const name of AGENT_DOMAIN_NAMES) t.ok(err.message.includes(`"${name}"`), `lists ${name}`);
});

t.test('a missing member is reported once, not also as a value of the wrong type', async (t) => {
  const issues = schemaIssues(SetpointsSchema, {
    kind: 'twist',
    linearMps: { x: 1, y: 0, z: 0 },
    durationMs: 10,
  });
  t.same(
    issues.filter((i) => i.path === '/angularRadS'),
    [{ path: '/angularRadS', message: 'expected required property, got nothing' }],
  );
});

t.test(
  'a member the schema does not know is called that, in the same "expected …, got …" words',
  async (t) => {
    const issues = schemaIssues(SetpointsSchema, { ...twist, extra: [1, 2] });
    t.same(issues, [{ path: '/extra', message: 'expected no member of this name, got array of length 2' }]);
  },
);
