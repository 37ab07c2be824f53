/**
 * `npm run bench -- injection`: the injection classifier's quality on its own held-out split (templates
 * never trained on; see cloud/models/MODEL_CARD.md) and its time per kilobyte.
 *
 * Quality: recall at 1 %, 2 % and 5 % false positives, and recall and false positives at the shipped
 * threshold — overall, on the hard benign rows alone (the generated families, without the repository's
 * own text, which is easy to pass), in-sample, and per language, attack family, disguise, carrier and
 * source (the generated corpus, the repository's text, each public source of other authors' text).
 * Time: the classifier stage alone (`classifyText`) and the whole screen (`screenTexts`, rules then
 * classifier) on 1 KiB fields cut from held-out text, reported per KiB; the target is ≤ 50 µs per KiB
 * at p99 added to a propose (the classifier stage is what the screen adds).
 *
 * The cloud is loaded from `cloud/dist` (npm run bench builds first); the bench package does not
 * depend on it.
 */
import { fileURLToPath } from 'node:url';
import { type BenchSuite, type TableRow, sectionOf, target } from '../harness/index.js';

const root = new URL('../../../', import.meta.url);

interface Row {
  label: 'attack' | 'benign';
  lang: string;
  family: string;
  split: 'train' | 'heldout' | 'unused';
  text: string;
}
interface Group {
  attacks: number;
  benign: number;
  recall: number;
  falsePositiveRate: number;
}
interface Report {
  threshold: number;
  overall: Group;
  recallAtFpr1: number;
  recallAtFpr2: number;
  recallAtFpr5: number;
  byLanguage: Record<string, Group>;
  byFamily: Record<string, Group>;
  byDisguise: Record<string, Group>;
  byCarrier: Record<string, Group>;
  bySource: Record<string, Group>;
}
interface TrainingModule {
  corpusRows(dir: string): Row[];
  scoreRows(rows: Row[], model: unknown): { row: Row; probability: number }[];
  qualityReport(scored: { row: Row; probability: number }[], threshold: number): Report;
}
interface ClassifierModule {
  bundledModel(): { threshold: number };
  classifyText(text: string): { probability: number };
}
interface ScreenModule {
  screenTexts(
    fields: { path: string; value: string }[],
    settings: Record<string, unknown>,
  ): { flagged: boolean };
}

const KIB = 1024;
const pct = (x: number) => (Number.isFinite(x) ? Math.round(x * 1000) / 10 : -1);

function groupRows(kind: string, groups: Record<string, Group>): TableRow[] {
  return Object.entries(groups).map(([name, g]) => ({
    name: `${kind} ${name}`,
    attacks: g.attacks,
    benign: g.benign,
    'recall %': pct(g.recall),
    'FP %': pct(g.falsePositiveRate),
  }));
}

/** 1 KiB fields: held-out text (benign and attack alike) joined and cut, so every field is full. */
function kibFields(rows: readonly Row[], count: number): string[] {
  const stream = rows.map((r) => r.text).join('\n');
  const out: string[] = [];
  for (let i = 0; out.length < count; i = (i + 977) % Math.max(1, stream.length - KIB)) {
    out.push(stream.slice(i, i + KIB));
  }
  return out;
}

const suite: BenchSuite = {
  name: 'injection',
  description: 'injection classifier: held-out recall at 1/2/5 % false positives, µs per KiB',
  oneCore: true,
  async run(ctx) {
    const training = (await import(
      new URL('cloud/dist/pentagon/tiers/injection/training/index.js', root).href
    )) as TrainingModule;
    const classifier = (await import(
      new URL('cloud/dist/pentagon/tiers/injection/classifier/index.js', root).href
    )) as ClassifierModule;
    const screen = (await import(
      new URL('cloud/dist/pentagon/tiers/injection/index.js', root).href
    )) as ScreenModule;
    const model = classifier.bundledModel();
    const rows = training.corpusRows(fileURLToPath(new URL('cloud/corpus/injection/', root)));
    const heldout = rows.filter((r) => r.split === 'heldout');
    ctx.log(`scoring ${rows.length} rows`);
    const scoredHeldout = training.scoreRows(heldout, model);
    const hard = training.qualityReport(
      scoredHeldout.filter((s) => s.row.family !== 'repository-text'),
      model.threshold,
    );
    const report = training.qualityReport(scoredHeldout, model.threshold);
    const inSample = training.qualityReport(
      training.scoreRows(
        rows.filter((r) => r.split === 'train'),
        model,
      ),
      model.threshold,
    );

    const fields = kibFields(heldout, ctx.size(2000, 40));
    const iterations = ctx.size(20_000, 400);
    const classify = ctx.measureSync(
      'classifierPerKiB',
      (i) => classifier.classifyText(fields[i % fields.length]!),
      {
        iterations,
      },
    );
    const rulesOnly = { threshold: 0.5, extraPatterns: [], classifier: { enabled: false } };
    const both = { threshold: 0.5, extraPatterns: [] };
    const rules = ctx.measureSync(
      'rulesScreenPerKiB',
      (i) => screen.screenTexts([{ path: '/arguments/body', value: fields[i % fields.length]! }], rulesOnly),
      { iterations },
    );
    const whole = ctx.measureSync(
      'wholeScreenPerKiB',
      (i) => screen.screenTexts([{ path: '/arguments/body', value: fields[i % fields.length]! }], both),
      { iterations },
    );

    const quality: TableRow[] = [
      ['held-out', report],
      ['held-out, hard benign only', hard],
      ['in-sample', inSample],
    ].map(([name, r]) => {
      const q = r as Report;
      return {
        name: name as string,
        attacks: q.overall.attacks,
        benign: q.overall.benign,
        'recall@1%FP %': pct(q.recallAtFpr1),
        'recall@2%FP %': pct(q.recallAtFpr2),
        'recall@5%FP %': pct(q.recallAtFpr5),
        'recall@thr %': pct(q.overall.recall),
        'FP@thr %': pct(q.overall.falsePositiveRate),
      };
    });
    const figures: Record<string, number> = {
      threshold: model.threshold,
      'heldout.recallAtFpr1': report.recallAtFpr1,
      'heldout.recallAtFpr2': report.recallAtFpr2,
      'heldout.recallAtFpr5': report.recallAtFpr5,
      'heldout.recallAtThreshold': report.overall.recall,
      'heldout.falsePositiveRateAtThreshold': report.overall.falsePositiveRate,
      'heldoutHard.recallAtFpr1': hard.recallAtFpr1,
      'heldoutHard.recallAtFpr2': hard.recallAtFpr2,
      'heldoutHard.recallAtFpr5': hard.recallAtFpr5,
      'heldoutHard.falsePositiveRateAtThreshold': hard.overall.falsePositiveRate,
      'inSample.recallAtThreshold': inSample.overall.recall,
      'inSample.falsePositiveRateAtThreshold': inSample.overall.falsePositiveRate,
    };
    return {
      suite: 'injection',
      ...sectionOf([classify, rules, whole], {
        rows: [
          ...quality,
          ...groupRows('language', report.byLanguage),
          ...groupRows('family', report.byFamily),
          ...groupRows('disguise', report.byDisguise),
          ...groupRows('carrier', report.byCarrier),
          ...groupRows('source', report.bySource),
        ],
        figures,
        targets: [
          target('held-out recall at threshold', pct(report.overall.recall), '>=', 85, '%'),
          target(
            'held-out false positives at threshold',
            pct(report.overall.falsePositiveRate),
            '<=',
            2,
            '%',
          ),
          // Issue #16: the screen (both stages) adds ≤ 50 µs per KiB at p99 to a propose.
          target('whole screen p99 per KiB', whole.p99Us, '<=', 50, 'µs'),
        ],
        notes: [
          `threshold ${model.threshold} (shipped with the model; chosen out-of-fold on training templates)`,
          'held-out = templates (and repository files, and a third of each public source by group) never trained on; "hard benign only" drops the ' +
            "repository's own text from the benign side, leaving the generated look-alike families",
          'time rows: one 1 KiB field per call, so µs per call = µs per KiB; wholeScreen = rules then classifier',
        ],
      }),
    };
  },
};

export default suite;
