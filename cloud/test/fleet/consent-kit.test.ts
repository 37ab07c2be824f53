/**
 * Consents in the audit kit: a grant or denial relayed through the cloud keeps the operator's token in its
 * audit entry, and `verify kit` checks it offline against the key the same log enrolled for that operator
 * (shared/verifier consent-grants.ts). A cloud that recorded a consent the operator did not sign — another
 * intent, scope, robot or decision, another operator, a key never enrolled or already retired, a changed
 * signature — is caught; entries from before tokens were recorded are counted, not failed.
 */
import { join } from 'node:path';
import type { AuditEntry } from '@pentagate/protocol';
import { ConsentGrantsCheck, ReportBuilder, verifyAuditKit } from '@pentagate/verifier';
import t from 'tap';
import { exportAuditKit } from '../../src/audit/kit-export.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { consentRequestFor, consentToken, liftIntent, testOperator } from '../helpers/consent.js';
import { testRobot } from '../helpers/fleet.js';

const REQUESTS = '/api/v1/fleet/robots/arm-1/consent-requests';

/** Runs the check over `entries` and returns its one report line. */
function check(entries: AuditEntry[]) {
  const consents = new ConsentGrantsCheck();
  for (const e of entries) consents.add(e);
  const report = new ReportBuilder('consents');
  consents.finish(report);
  return report.finish().checks.find((c) => c.name === 'consent tokens');
}

t.test(
  'relayed consents verify offline in the audit kit; a recorded consent the token does not sign fails',
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const alice = testOperator('alice');
    const enrolled = await cloud.app.inject({
      method: 'PUT',
      url: '/api/v1/fleet/operator-key',
      headers: bearer(cloud.a.keys.admin),
      payload: { publicKey: alice.publicKey, operatorId: alice.operatorId },
    });
    t.equal(enrolled.statusCode, 200, enrolled.body);
    const [lift, other] = [liftIntent('arm-1'), liftIntent('arm-1')].map((i) =>
      consentRequestFor(i, Date.now()),
    );
    for (const [request, decision] of [
      [lift!, 'grant'],
      [other!, 'deny'],
    ] as const) {
      const parked = await cloud.app.inject({
        method: 'POST',
        url: REQUESTS,
        headers: bearer(edgeKey),
        payload: request,
      });
      t.equal(parked.statusCode, 200, parked.body);
      const token = consentToken(alice, request, Date.now(), decision === 'deny' ? { decision } : {});
      const answered = await cloud.app.inject({
        method: 'POST',
        url: `${REQUESTS}/${request.intentDigest}/${decision}`,
        headers: bearer(cloud.a.keys.operator),
        payload: { token },
      });
      t.equal(answered.statusCode, 200, answered.body);
    }

    const out = join(cloud.dir, 'kit');
    await exportAuditKit(cloud.store, out, {
      origin: cloud.app.cloud.keys.origin,
      noteSigner: cloud.app.cloud.keys.note,
    });
    const report = await verifyAuditKit(out, { selfAssertedTrust: true });
    t.equal(report.valid, true, report.failures.join('; '));
    t.match(
      report.checks.find((c) => c.name === 'consent tokens'),
      {
        ok: true,
        detail: /^2 consent tokens verify with the operator keys this log enrolled$/,
      },
    );

    const entries = (await cloud.store.auditEntries(0, await cloud.store.auditSize())).map((e) => e.entry);
    const enrolment = entries.find((e) => e.type === 'operator.key')!;
    const grant = entries.find((e) => e.type === 'consent.grant')!;
    const denial = entries.find((e) => e.type === 'consent.deny')!;
    t.ok(grant.data.token, 'the grant entry carries the token');
    t.equal(check(entries)?.ok, true);

    /** The log with the grant entry replaced by `changed`. */
    const withGrant = (changed: AuditEntry) => entries.map((e) => (e === grant ? changed : e));
    const refused: [string, AuditEntry[], RegExp][] = [
      [
        'another intent',
        withGrant({ ...grant, subjectDigest: other!.intentDigest }),
        /signs intentDigest \w+, the entry says \w+/,
      ],
      [
        'another scope',
        withGrant({ ...grant, data: { ...grant.data, scope: 'safety-critical' } }),
        /signs scope high-torque, the entry says safety-critical/,
      ],
      [
        'another robot',
        withGrant({ ...grant, data: { ...grant.data, robotId: 'arm-2' } }),
        /signs robotId arm-1, the entry says arm-2/,
      ],
      [
        'a denial recorded as a grant',
        entries.map((e) => (e === denial ? { ...denial, type: 'consent.grant' } : e)),
        /signs decision deny, the entry says grant/,
      ],
      [
        'another operator',
        withGrant({ ...grant, actor: 'bob' }),
        /enrolled for operator alice, the entry names bob/,
      ],
      ['no enrolment', entries.filter((e) => e !== enrolment), /was never enrolled earlier in this log/],
      [
        'a key retired before',
        entries.flatMap((e) =>
          e === grant
            ? [{ ...enrolment, index: grant.index - 0.5, data: { ...enrolment.data, action: 'retire' } }, e]
            : [e],
        ),
        /was retired at entry [\d.]+, before this one/,
      ],
      [
        'a changed signature',
        withGrant({
          ...grant,
          data: {
            ...grant.data,
            token: { ...(grant.data.token as object), payload: Buffer.from('{}').toString('base64') },
          },
        }),
        /the token does not verify/,
      ],
    ];
    for (const [what, log, why] of refused) {
      const line = check(log);
      t.equal(line?.ok, false, `${what}: refused`);
      t.match(line?.detail, why, what);
    }

    const { token: _token, ...untokened } = grant.data;
    t.match(
      check(withGrant({ ...grant, data: untokened })),
      {
        ok: true,
        detail: /^1 consent tokens verify .*; 1 written before tokens were recorded carry none$/,
      },
      'an entry from before tokens were recorded is counted, not failed',
    );
  },
);
