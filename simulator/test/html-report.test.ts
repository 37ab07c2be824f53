/**
 * The HTML report renders offline in headless Chromium (Debian `chromium` driven by playwright-core) and
 * shows what happened: pass/fail per scenario, the failed expectation, and the plots with their data.
 * The trace comes from the real models and controller stepped on simulated time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hmacKeyId, signMotorCommand } from '@pentagate/crypto';
import t from 'tap';
import { launchChromium, skipWithoutChromium } from '../../scripts/test/chromium.js';
import { MotorController } from '../src/controller/motor-controller.js';
import { simulatedFirmware } from '../src/models/firmware-report.js';
import { PersonPath } from '../src/models/person-path.js';
import { renderHtmlReport } from '../src/report/html-report.js';
import { SimulatedRobot } from '../src/robot/simulated-robot.js';
import { checkExpectations, vetoLatencies } from '../src/runner/expectations.js';
import type { ScenarioResult } from '../src/runner/scenario-runner.js';
import type { ScenarioTrace } from '../src/runner/trace.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';

const key = new Uint8Array(32).fill(9);
const kid = hmacKeyId(key);

/** Human-enters-radius on simulated time: a move, the person at 0.8 m from t=1.0 s, a STOP 30 ms later. */
function simulatedResult(): ScenarioResult {
  const loaded = loadScenario(
    fileURLToPath(new URL('../scenarios/human-enters-radius.yaml', import.meta.url)),
  );
  const { profile } = loaded;
  let now = 1_700_000_000_000;
  const start = now;
  const controller = new MotorController({
    robotId: profile.robotId,
    keys: new Map([[kid, key]]),
    jointNames: profile.joints.map((j) => j.name),
    watchdogMs: 5000,
    clock: () => now,
  });
  const trace: ScenarioTrace = {
    startedAtMs: start,
    samples: [],
    proximity: [],
    verdicts: [],
    controller: [],
    events: [],
    intentsAtMs: new Map(),
    radiusM: profile.risk.operatingRadiusM,
  };
  controller.onEvent((e) => trace.controller.push(e));
  const robot = new SimulatedRobot({
    profile,
    controller,
    firmware: simulatedFirmware('1.4.2'),
    people: [
      new PersonPath('visitor', [
        { atMs: 0, xM: 3, yM: 0 },
        { atMs: 600, xM: 3, yM: 0 },
        { atMs: 1000, xM: 0.8, yM: 0 },
      ]),
    ],
    initialJointsRad: loaded.scenario.initial?.jointsRad ?? [],
    sensors: { noiseSigmaM: 0 },
  });
  const sign = (seq: number, epoch: number, setpoints: Parameters<typeof signMotorCommand>[1]['setpoints']) =>
    signMotorCommand(key, {
      v: 1,
      kid,
      robotId: profile.robotId,
      epoch,
      seq,
      issuedAt: now,
      validUntil: now + 150,
      intentId: 'sweep-1',
      setpoints,
      cfgDigest: 'a'.repeat(64),
      evidenceDigest: 'b'.repeat(64),
    });
  let stopped = false;
  for (let tMs = 0; tMs <= 1500; tMs += 10) {
    now = start + tMs;
    if (tMs === 200) {
      const cmd = sign(1, 1, {
        kind: 'joint',
        jointNames: profile.joints.map((j) => j.name),
        points: [{ positionsRad: [0.8, -1.571, 1.571, -1.571, -1.571, 0], timeFromStartMs: 1200 }],
      });
      controller.receive(JSON.stringify(cmd), 'edge', robot.currentJointsRad);
      trace.verdicts.push({
        receivedAtMs: now,
        verdict: {
          v: 1,
          robotId: profile.robotId,
          intentId: 'sweep-1',
          outcome: 'signed',
          atMs: now,
          violations: [],
          gates: [],
          commandSeq: 1,
        },
      });
    }
    const inside = trace.proximity.find((p) => p.nearestHumanM !== null && p.nearestHumanM < trace.radiusM);
    if (inside && !stopped && now >= inside.atMs + 30) {
      stopped = true;
      const violation = 'RISK.HUMAN_IN_RADIUS: human at 1.10 m < radius 1.20 m';
      controller.receive(JSON.stringify(sign(2, 2, { kind: 'stop', reason: violation })), 'edge');
      trace.verdicts.push({
        receivedAtMs: now,
        verdict: {
          v: 1,
          robotId: profile.robotId,
          intentId: 'sweep-1',
          outcome: 'stopped',
          atMs: now,
          violations: [violation],
          gates: [],
          commandSeq: 2,
        },
      });
    }
    const { frames, sample } = robot.step(tMs, now, 10);
    trace.samples.push(sample);
    for (const f of frames)
      if (f.kind === 'proximity')
        trace.proximity.push({ atMs: now, source: f.source, nearestHumanM: f.nearestHumanM });
  }
  const expectations = checkExpectations(loaded.scenario.expect, trace, key);
  return {
    name: loaded.scenario.name,
    file: loaded.file,
    transport: 'mqtt',
    passed: expectations.every((e) => e.ok),
    expectations,
    vetoLatencies: vetoLatencies(trace),
    trace,
    rejections: controller.rejections(),
    wallMs: 1500,
    maxStepGapMs: 10,
    lastTelemetrySeq: 0,
    lastTelemetrySeqs: new Map(),
  };
}

t.test(
  'the report shows verdicts, the stop latency and each plot, offline in headless Chromium',
  async (t) => {
    const result = simulatedResult();
    t.equal(
      result.vetoLatencies[0]?.latencyMs,
      30,
      'stop latency measured from the first frame showing the person',
    );
    const held = (name: string) => result.expectations.find((e) => e.name === name)?.ok;
    t.equal(held('vetoWithinMs 100'), true, 'the 30 ms stop is within 100 ms');
    t.equal(held('noMotionWhile humanInRadius'), true, 'the arm stood still while the person was inside');
    t.equal(held('noUnsignedMotion'), true, 'every motion traces to a MAC-verified, announced command');
    t.equal(held('notExecuted sweep-2'), true);
    const html = renderHtmlReport([result], new Date('2026-01-02T03:04:05Z'));
    t.notMatch(
      html,
      /<script[^>]*\ssrc=|<link|https?:\/\/(?!www\.w3\.org|github\.com\/leeoniya\/uPlot)/,
      'scripts inline only, nothing fetched',
    );
    const missing = skipWithoutChromium(t);
    if (missing) {
      if (!process.env.CI) t.skip(`${missing} to run the rendering check`, () => {});
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'pentagate-report-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'report.html');
    await writeFile(file, html);
    const browser = await launchChromium(t);
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`);
    t.same(requests, [`file://${file}`], 'the page loads nothing but itself');
    t.match(await page.textContent('#summary'), /scenario\(s\) passed · generated 2026-01-02T03:04:05/);
    t.equal(await page.textContent('section h2 small'), '(mqtt, 1.5 s)');
    const captions = await page.$$eval('figcaption', (els) => els.map((e) => e.textContent));
    t.same(captions, [
      'Joint torques',
      'Human distance against the operating radius',
      'Robot motion',
      'Battery',
      'Verdicts',
      'Stop / veto latency (first frame showing the person → STOP at the controller, or intent → veto)',
    ]);
    const latencyText = await page.$$eval('figure:last-of-type svg text', (els) =>
      els.map((e) => e.textContent),
    );
    t.ok(latencyText.includes('30 ms'), `the latency bar reads 30 ms (${latencyText.join(', ')})`);
    // The charts uPlot drew: one quantity per axis, each axis names its unit.
    const charts = await page.evaluate(() =>
      (
        window as unknown as {
          pentagateCharts: { id: string; axes: string[]; series: string[]; markers: string[] }[];
        }
      ).pentagateCharts.map(({ id, axes, series, markers }) => ({ id, axes, series, markers })),
    );
    t.same(
      charts.map((c) => c.axes),
      [
        ['time (s)', 'torque (N·m)'],
        ['time (s)', 'distance (m)'],
        ['time (s)', 'motion'],
        ['time (s)', 'terminal voltage (V)', 'state of charge (%)'],
        ['time (s)', 'verdict'],
      ],
      'every axis says what it measures, in which unit; volts and percent on their own axes',
    );
    t.equal(charts[0]?.series.length, 6, 'one torque line per joint');
    t.same(charts[1]?.markers, ['stopped'], 'the STOP is marked on the distance chart');
    t.ok(charts[4]?.series.includes('stopped'), 'verdict outcomes are the categories of the verdict axis');
    const canvases = await page.$$eval('figure.chart canvas', (els) =>
      els.map((e) => e.getBoundingClientRect().width),
    );
    t.equal(canvases.length, 5, 'every chart is drawn');
    t.ok(
      canvases.every((w) => w > 300),
      `the charts are laid out (${canvases.join(', ')} px wide)`,
    );
    // Legend entries never overlap (the hand-drawn legend's labels did).
    const overlaps = await page.$$eval('figure.chart', (figs) =>
      figs.flatMap((fig) => {
        const boxes = [...fig.querySelectorAll('.u-legend .u-series')].map((e) => e.getBoundingClientRect());
        const hits: string[] = [];
        for (const [i, a] of boxes.entries()) {
          for (const b of boxes.slice(i + 1)) {
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
              hits.push(fig.getAttribute('data-chart') ?? '?');
            }
          }
        }
        return hits;
      }),
    );
    t.same(overlaps, [], 'no two legend entries overlap');
    if (process.env.PENTAGATE_UPDATE_SCREENSHOTS === '1') {
      // The screenshots in simulator/README.md, one per chart type.
      for (const fig of await page.$$('figure.chart')) {
        const id = ((await fig.getAttribute('data-chart')) ?? '').replace(/^s\d+-/, '');
        await fig.screenshot({ path: join(import.meta.dirname, '..', 'docs', `report-${id}.png`) });
      }
    }
    const rows = await page.$$eval('table.expect tr', (els) => els.length);
    t.equal(rows, result.expectations.length + 1, 'every expectation has a row');
    const timeline = await page.$$eval('ol.timeline li', (els) => els.map((e) => e.textContent ?? ''));
    t.ok(
      timeline.some((l) => /controller halted \(stop-command\)/.test(l)),
      'the halt is on the timeline',
    );
  },
);
