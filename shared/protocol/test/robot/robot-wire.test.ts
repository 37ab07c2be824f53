import {
  IntentSchema,
  TelemetryFrameSchema,
  VerdictEventSchema,
  conforms,
  parseRobotTopic,
  pointerToPath,
  robotTopics,
  schemaProblems,
  RobotProfileSchema,
} from '@pentagate/protocol';
import t from 'tap';

const trajectory = {
  v: 1,
  kind: 'joint-trajectory',
  intentId: 'int-1',
  robotId: 'ur5e-01',
  jointNames: ['a', 'b'],
  points: [{ positionsRad: [0, 1], timeFromStartMs: 100 }],
};

t.test('accepts a joint trajectory and a base twist intent', async (t) => {
  t.ok(conforms(IntentSchema, trajectory));
  t.ok(
    conforms(IntentSchema, {
      v: 1,
      kind: 'base-twist',
      intentId: 'int-2',
      robotId: 'base-1',
      linearMps: { x: 0.5, y: 0, z: 0 },
      angularRadS: { x: 0, y: 0, z: 0.1 },
      durationMs: 1000,
      moveClass: 'transit',
    }),
  );
});

t.test('refuses non-finite numbers and unknown members in intents', async (t) => {
  t.notOk(
    conforms(IntentSchema, {
      ...trajectory,
      points: [{ positionsRad: [Number.NaN, 1], timeFromStartMs: 1 }],
    }),
  );
  t.notOk(
    conforms(IntentSchema, { ...trajectory, points: [{ positionsRad: [Infinity, 1], timeFromStartMs: 1 }] }),
  );
  t.notOk(conforms(IntentSchema, { ...trajectory, extra: 1 }));
});

t.test('telemetry frames: proximity null means nobody seen; state of charge is bounded', async (t) => {
  const common = { v: 1, robotId: 'r1', source: 'front', seq: 3, stampMs: 1000 };
  t.ok(conforms(TelemetryFrameSchema, { ...common, kind: 'proximity', nearestHumanM: null }));
  t.ok(conforms(TelemetryFrameSchema, { ...common, kind: 'proximity', nearestHumanM: 1.2, sectorRad: 0.3 }));
  t.notOk(conforms(TelemetryFrameSchema, { ...common, kind: 'proximity', nearestHumanM: -1 }));
  t.notOk(
    conforms(TelemetryFrameSchema, {
      ...common,
      kind: 'battery',
      voltageV: 48,
      currentA: 2,
      stateOfCharge: 1.5,
    }),
  );
});

t.test('verdict events carry gate results', async (t) => {
  t.ok(
    conforms(VerdictEventSchema, {
      v: 1,
      robotId: 'r1',
      outcome: 'vetoed',
      atMs: 5,
      violations: ['RISK.HUMAN_IN_RADIUS: x'],
      gates: [{ vertex: 'RISK', passed: false, violations: ['RISK.HUMAN_IN_RADIUS: x'], evidence: {} }],
    }),
  );
  t.notOk(
    conforms(VerdictEventSchema, {
      v: 1,
      robotId: 'r1',
      outcome: 'maybe',
      atMs: 5,
      violations: [],
      gates: [],
    }),
  );
});

t.test('robot topics follow pentagate/v1/<robotId>/… and refuse wildcards', async (t) => {
  const topics = robotTopics('ur5e-01');
  t.equal(topics.cmd, 'pentagate/v1/ur5e-01/cmd');
  t.equal(topics.telemetry('front'), 'pentagate/v1/ur5e-01/telemetry/front');
  t.equal(topics.telemetryFilter, 'pentagate/v1/ur5e-01/telemetry/+');
  t.equal(topics.verdict, 'pentagate/v1/ur5e-01/verdict');
  for (const bad of ['a/b', '+', '#', 'x+', '', 'a'.repeat(65)]) {
    t.throws(() => robotTopics(bad), { code: 'INVALID_INPUT' }, `refuses ${JSON.stringify(bad)}`);
  }
  t.throws(() => topics.telemetry('front/#'), { code: 'INVALID_INPUT' });
  t.same(parseRobotTopic('pentagate/v1/ur5e-01/telemetry/front'), {
    robotId: 'ur5e-01',
    kind: 'telemetry',
    source: 'front',
  });
  t.same(parseRobotTopic('pentagate/v1/ur5e-01/intent'), { robotId: 'ur5e-01', kind: 'intent' });
  t.equal(parseRobotTopic('pentagate/v1/ur5e-01/other'), undefined);
  t.equal(parseRobotTopic('pentagate/v1/ur5e-01/intent/x'), undefined);
  t.equal(parseRobotTopic('other/v1/r/intent'), undefined);
});

t.test('schema problems name the path, the expectation and the value', async (t) => {
  t.equal(pointerToPath('/joints/2/torqueLimitNm'), 'joints[2].torqueLimitNm');
  const problems = schemaProblems(RobotProfileSchema, {
    v: 1,
    robotId: 'r',
    kind: 'arm',
    joints: [{ name: 'j', torqueLimitNm: -3 }],
  });
  t.ok(
    problems.some(
      (p) => p.path === 'joints[0].torqueLimitNm' && p.message === 'expected a positive number, got -3',
    ),
  );
  t.ok(problems.some((p) => p.path === 'joints[0].dh' && p.message === 'required, but missing'));
});

t.test('a missing field is named once, as missing, not again as a value of the wrong type', async (t) => {
  const problems = schemaProblems(RobotProfileSchema, {
    v: 1,
    robotId: 'r',
    kind: 'arm',
    joints: [{ name: 'j', torqueLimitNm: 10 }],
    battery: { capacityWh: null },
  });
  const at = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message);
  t.same(at('joints[0].dh'), ['required, but missing']);
  t.same(at('battery.efficiency'), ['required, but missing']);
  t.same(at('battery.capacityWh'), ['expected a finite number, got null'], 'a value given is still judged');
});
