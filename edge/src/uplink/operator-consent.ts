/**
 * The operator's side of the consent relay from the command line: read the robot moves waiting in the
 * cloud's approvals queue, and hand the cloud a token signed here with the operator's own key. The private
 * key never leaves this machine; the cloud only checks and relays the token.
 */
import {
  type ConsentDecision,
  describeFetchFailure,
  NO_REDIRECT,
  PentagateError,
  redirectRefusal,
  type RobotConsentItem,
  RobotConsentListSchema,
  readJson,
  schemaIssues,
} from '@pentagate/protocol';

/** A robot move waiting in the cloud's approvals queue (the queue's own item schema). */
export type WaitingConsent = RobotConsentItem;

export class ConsentCloudError extends PentagateError {}

export interface OperatorCloud {
  url: string;
  /** An operator (or admin) API key of the tenant. */
  key: string;
}

async function call(cloud: OperatorCloud, method: string, path: string, body?: unknown): Promise<unknown> {
  const base = cloud.url.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${cloud.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
      // not followed: another address would list the moves the operator signs for, or get the token
      ...NO_REDIRECT,
    });
  } catch (err) {
    throw new ConsentCloudError(
      'CLOUD_UNREACHABLE',
      `cannot reach the cloud: ${method} ${base}${path}: ${describeFetchFailure(err)}`,
    );
  }
  const text = await res.text();
  const redirect = redirectRefusal(res);
  if (redirect !== undefined) {
    throw new ConsentCloudError('CLOUD_REFUSED', `${method} ${path}: ${redirect}`);
  }
  if (res.status !== 200) {
    let message = text.slice(0, 300);
    try {
      const e = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
      if (e) message = `${e.code}: ${e.message}`;
    } catch {
      // not our cloud's error body: the status and the start of the text say enough
    }
    throw new ConsentCloudError('CLOUD_REFUSED', `${method} ${path}: ${res.status} ${message}`);
  }
  return readJson(text, { what: `answer to ${method} ${path}` });
}

/** The robot moves waiting for consent, oldest first (one robot's when given). */
export async function waitingConsents(cloud: OperatorCloud, robotId?: string): Promise<WaitingConsent[]> {
  const query = robotId ? `?robot=${encodeURIComponent(robotId)}` : '';
  const body = await call(cloud, 'GET', `/api/v1/fleet/consent-requests${query}`);
  const issue = schemaIssues(RobotConsentListSchema, body)[0];
  if (issue) {
    throw new ConsentCloudError(
      'CLOUD_REFUSED',
      `the consent-requests answer is not the approvals queue's shape: ${issue.path || '/'}: ${issue.message}`,
    );
  }
  return (body as { items: WaitingConsent[] }).items;
}

/**
 * Hands the cloud a signed token (a grant, or a denial) for one waiting move; resolves with the audit index
 * of the decision.
 */
export async function relayConsent(
  cloud: OperatorCloud,
  waiting: WaitingConsent,
  token: unknown,
  decision: ConsentDecision = 'grant',
): Promise<number> {
  const path = decision === 'grant' ? waiting.grantPath : waiting.denyPath;
  const answer = (await call(cloud, 'POST', path, { token })) as { auditIndex?: number };
  return answer.auditIndex ?? -1;
}
