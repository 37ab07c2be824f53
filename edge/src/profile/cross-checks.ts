/**
 * Rules of a robot profile that JSON Schema cannot say: ordered limits, unique names, references that must
 * resolve, zones no thinner than the sampling guarantee, and the keys each enabled check needs.
 * Each rule adds a problem with its path; none stops the others from running.
 */
import { type ProfileProblem, type RobotProfile, TrustDocumentSchema, conforms } from '@pentagate/protocol';

function duplicates<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Set<string>();
  const dup: number[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) dup.push(i);
    seen.add(k);
  });
  return dup;
}

function checkJoints(p: RobotProfile, out: ProfileProblem[]): void {
  if (p.kind === 'arm' && p.joints.length === 0)
    out.push({ path: 'joints', message: 'an arm needs at least one joint' });
  for (const i of duplicates(p.joints, (j) => j.name)) {
    out.push({
      path: `joints[${i}].name`,
      message: `duplicate joint name ${JSON.stringify(p.joints[i]?.name)}`,
    });
  }
  p.joints.forEach((j, i) => {
    if (!(j.positionLimitsRad.min < j.positionLimitsRad.max)) {
      out.push({
        path: `joints[${i}].positionLimitsRad`,
        message: `expected min < max, got min ${j.positionLimitsRad.min} and max ${j.positionLimitsRad.max}`,
      });
    }
  });
  if (p.kind === 'mobile-base' && !p.base)
    out.push({ path: 'base', message: 'a mobile base needs its base model' });
}

function checkZones(p: RobotProfile, out: ProfileProblem[]): void {
  const t = p.keepOut.minZoneThicknessM;
  for (const i of duplicates(p.keepOut.zones, (z) => z.id)) {
    out.push({
      path: `keepOut.zones[${i}].id`,
      message: `duplicate zone id ${JSON.stringify(p.keepOut.zones[i]?.id)}`,
    });
  }
  p.keepOut.zones.forEach((z, i) => {
    const path = `keepOut.zones[${i}]`;
    const thin = (extentM: number, what: string) => {
      if (extentM < t) {
        out.push({
          path,
          message: `${what} is ${extentM.toFixed(3)} m, thinner than keepOut.minZoneThicknessM ${t} m`,
        });
      }
    };
    if (z.shape === 'box') {
      for (const axis of ['x', 'y', 'z'] as const) {
        if (!(z.minM[axis] < z.maxM[axis])) {
          out.push({
            path: `${path}.maxM.${axis}`,
            message: `expected maxM.${axis} > minM.${axis}, got ${z.maxM[axis]} <= ${z.minM[axis]}`,
          });
        } else thin(z.maxM[axis] - z.minM[axis], `extent along ${axis}`);
      }
    } else if (z.shape === 'sphere') {
      thin(2 * z.radiusM, 'diameter');
    } else {
      if (!(z.zMinM < z.zMaxM)) {
        out.push({ path: `${path}.zMaxM`, message: `expected zMaxM > zMinM, got ${z.zMaxM} <= ${z.zMinM}` });
      } else thin(z.zMaxM - z.zMinM, 'height');
      let area2 = 0;
      z.polygonM.forEach((a, k) => {
        const b = z.polygonM[(k + 1) % z.polygonM.length]!;
        area2 += a.x * b.y - b.x * a.y;
      });
      if (Math.abs(area2) / 2 < t * t) {
        out.push({
          path: `${path}.polygonM`,
          message: `polygon area ${(Math.abs(area2) / 2).toFixed(4)} m² is degenerate`,
        });
      }
    }
  });
}

/**
 * The gates read one source of these kinds, the first (compiled-profile.ts): a second one is judged by no gate. A
 * skeleton from a Nav2 recording once listed `/odom` (odom frame, refused) before `/amcl_pose`, so INVARIANT read
 * the refused one and vetoed every drive while the localizer's pose went unread; a second battery pack or
 * controller firmware listed after the first would likewise go unchecked. So a profile names one.
 */
function onlyOne(p: RobotProfile, kind: string, why: string, out: ProfileProblem[]): void {
  const first = p.sources.find((s) => s.kind === kind);
  p.sources.forEach((s, i) => {
    if (s.kind !== kind || s === first) return;
    out.push({
      path: `sources[${i}]`,
      message: `a second ${kind} source ${JSON.stringify(s.name)}: ${why}, the first (${JSON.stringify(first?.name)}), so this one would be judged by no gate; keep one`,
    });
  });
}

function checkSources(p: RobotProfile, out: ProfileProblem[]): void {
  for (const i of duplicates(p.sources, (s) => s.name)) {
    out.push({
      path: `sources[${i}].name`,
      message: `duplicate source name ${JSON.stringify(p.sources[i]?.name)}`,
    });
  }
  const byName = new Map(p.sources.map((s) => [s.name, s]));
  const need = (kind: string, why: string) => {
    if (!p.sources.some((s) => s.kind === kind))
      out.push({ path: 'sources', message: `needs a ${kind} source (${why})` });
  };
  need('proximity', 'RISK');
  need('battery', 'ECONOMY');
  need('firmware', 'PROVENANCE');
  if (p.kind === 'arm') need('joint-state', 'INVARIANT for an arm');
  else need('pose', 'INVARIANT for a mobile base');
  onlyOne(p, 'pose', 'INVARIANT reads one pose source', out);
  onlyOne(p, 'battery', 'ECONOMY reads one battery source', out);
  onlyOne(p, 'firmware', 'PROVENANCE reads one firmware source', out);
  p.risk.proximitySources?.forEach((name, i) => {
    const s = byName.get(name);
    if (!s)
      out.push({ path: `risk.proximitySources[${i}]`, message: `no source named ${JSON.stringify(name)}` });
    else if (s.kind !== 'proximity') {
      out.push({
        path: `risk.proximitySources[${i}]`,
        message: `source ${JSON.stringify(name)} is ${s.kind}, not proximity`,
      });
    }
  });
  for (const i of duplicates(p.sensors, (s) => s.id)) {
    out.push({
      path: `sensors[${i}].id`,
      message: `duplicate sensor id ${JSON.stringify(p.sensors[i]?.id)}`,
    });
  }
  p.sensors.forEach((s, i) => {
    if (s.source !== undefined && !byName.has(s.source)) {
      out.push({ path: `sensors[${i}].source`, message: `no source named ${JSON.stringify(s.source)}` });
    }
  });
  checkSourceFields(p, out);
}

/**
 * A measuring range belongs to a proximity source; an authenticated source needs the id of the key its frames
 * are signed with (sensor-keys.ts).
 */
function checkSourceFields(p: RobotProfile, out: ProfileProblem[]): void {
  p.sources.forEach((s, i) => {
    if (s.maxRangeM !== undefined && s.kind !== 'proximity') {
      out.push({
        path: `sources[${i}].maxRangeM`,
        message: `source ${JSON.stringify(s.name)} is ${s.kind}: only a proximity source has a measuring range`,
      });
    }
    if (s.authenticated === true && s.macKeyId === undefined) {
      out.push({
        path: `sources[${i}].macKeyId`,
        message: `source ${JSON.stringify(s.name)} is authenticated: name its sensor key (pentagate keys generate --kind hmac prints it)`,
      });
    }
  });
}

function checkBattery(p: RobotProfile, out: ProfileProblem[]): void {
  const b = p.battery;
  if (!(b.minVoltageV < b.nominalVoltageV)) {
    out.push({
      path: 'battery.minVoltageV',
      message: `expected < nominalVoltageV ${b.nominalVoltageV}, got ${b.minVoltageV}`,
    });
  }
  if (!(b.reserveWh < b.capacityWh)) {
    out.push({
      path: 'battery.reserveWh',
      message: `expected < capacityWh ${b.capacityWh}, got ${b.reserveWh}`,
    });
  }
  if (b.allocationsWh.default === undefined) {
    out.push({
      path: 'battery.allocationsWh',
      message: 'needs a `default` allocation for intents without a move class',
    });
  }
}

function checkTrust(p: RobotProfile, out: ProfileProblem[]): void {
  const hasDoc = p.trust.document !== undefined;
  if (hasDoc === (p.trust.path !== undefined)) {
    out.push({ path: 'trust', message: 'expected exactly one of `document` (inline) or `path`' });
    return;
  }
  if (!hasDoc) return; // a path is read and inlined by the loader, which then runs this check again
  if (!conforms(TrustDocumentSchema, p.trust.document)) {
    out.push({
      path: 'trust.document',
      message: 'expected a trust document { keys: [{ kid, alg, role, publicKey }] }',
    });
    return;
  }
  const roles = new Set(p.trust.document.keys.map((k) => k.role));
  const want = (role: string, why: string) => {
    if (!roles.has(role as never))
      out.push({ path: 'trust.document.keys', message: `needs a ${role} key (${why})` });
  };
  want('vendor', 'firmware manifests');
  want('operator', 'consent statements');
  if (p.sensors.some((s) => s.calibrationRequired)) want('calibration', 'calibration certificates');
}

function checkSpeedScale(p: RobotProfile, out: ProfileProblem[]): void {
  if (p.risk.ssm.minSpeedScale !== undefined && p.risk.ssm.minSpeedScale > 1) {
    out.push({ path: 'risk.ssm.minSpeedScale', message: 'expected <= 1' });
  }
}

/** Each rule with the top-level sections it reads: it can run only when those sections are schema-valid. */
const RULES: ReadonlyArray<{
  name: string;
  reads: readonly string[];
  check: (p: RobotProfile, out: ProfileProblem[]) => void;
}> = [
  { name: 'joints', reads: ['kind', 'joints', 'base'], check: checkJoints },
  { name: 'keep-out zones', reads: ['keepOut'], check: checkZones },
  { name: 'sources', reads: ['kind', 'sources', 'risk', 'sensors'], check: checkSources },
  { name: 'battery', reads: ['battery'], check: checkBattery },
  { name: 'trust', reads: ['trust', 'sensors'], check: checkTrust },
  { name: 'speed scale', reads: ['risk'], check: checkSpeedScale },
];

/** Every cross-field problem of a schema-valid profile. */
export function crossFieldProblems(p: RobotProfile): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  for (const rule of RULES) rule.check(p, out);
  return out;
}

/**
 * Cross-field problems reported beside schema problems, so one `edge check` run lists both: every rule whose
 * sections are schema-valid runs; a rule that reads a section with a schema problem is not run, and says so
 * (it would read values of the wrong shape), rather than staying silent.
 */
export function crossFieldProblemsBeside(
  value: unknown,
  schemaProblems: readonly ProfileProblem[],
): ProfileProblem[] {
  const broken = new Set(schemaProblems.map((p) => p.path.split(/[.[]/)[0] ?? ''));
  const wholeDocument = broken.has('') || typeof value !== 'object' || value === null || Array.isArray(value);
  const out: ProfileProblem[] = [];
  for (const rule of RULES) {
    const blockers = rule.reads.filter((section) => broken.has(section));
    if (wholeDocument || blockers.length > 0) {
      out.push({
        path: blockers[0] ?? '',
        message: `cross-field checks of ${rule.name} not run until the schema problems in ${
          wholeDocument ? 'the document' : blockers.join(', ')
        } are fixed`,
      });
      continue;
    }
    try {
      rule.check(value as RobotProfile, out);
    } catch {
      // A section the schema passed is never of the wrong shape; fail loudly in the report, not with a stack.
      out.push({ path: rule.reads[0] ?? '', message: `cross-field checks of ${rule.name} could not run` });
    }
  }
  return out;
}
