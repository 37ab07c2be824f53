/**
 * Storage of the consent relay (cloud/src/fleet/consent-relay.ts): robot consent requests an edge posted,
 * the operator tokens granted for them, and which tokens the edge has taken. Every change that an auditor
 * must see (a request, a grant) is one transaction with its audit entry; delivery is bookkeeping.
 */
import type { ConsentRequest } from '@pentagate/protocol';
import type { AuditRecord } from './records.js';
import type { AuditEntryBuilder } from './store.js';

/**
 * `closed`: the edge stopped waiting before any token came through the cloud (consent arrived on its consent
 * topic, the intent was superseded or vetoed, the edge restarted) and said so; nothing is relayed for it.
 */
export type ConsentRequestState = 'waiting' | 'granted' | 'delivered' | 'closed';

export interface ConsentRequestRecord {
  tenantId: string;
  robotId: string;
  intentDigest: string;
  request: ConsentRequest;
  state: ConsentRequestState;
  /** The edge's deadline (its clock); after it the edge has vetoed the intent. */
  deadlineMs: number;
  createdAtMs: number;
  operatorId: string | null;
  grantedAtMs: number | null;
  deliveredAtMs: number | null;
}

export interface ConsentGrantWrite {
  /** The DSSE envelope as the operator signed it. */
  token: unknown;
  operatorId: string;
  nowMs: number;
}

export interface ConsentQueue {
  /**
   * Stores a new request with its audit entry, or reopens the row of an identical intent whose earlier wait
   * closed; undefined (nothing written) when the same wait is already open.
   */
  put(record: ConsentRequestRecord, audit: AuditEntryBuilder): Promise<AuditRecord | undefined>;
  /** Requests still waiting at `nowMs`, oldest first; one robot's when `robotId` is given. */
  listWaiting(tenantId: string, nowMs: number, robotId?: string): Promise<ConsentRequestRecord[]>;
  get(tenantId: string, robotId: string, intentDigest: string): Promise<ConsentRequestRecord | undefined>;
  /**
   * Stores the token on a request still waiting before its deadline, with its audit entry; undefined when
   * the request is not waiting any more (granted already, or past its deadline): a token is relayed once.
   */
  grant(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    grant: ConsentGrantWrite,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined>;
  /**
   * Closes a request still waiting, with its audit entry (the edge no longer waits for it); undefined when it
   * is not waiting (granted already, or unknown): a grant that won the race stays as it is.
   */
  close(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined>;
  /** The granted tokens of a robot not yet taken, marked delivered in the same step (each is taken once). */
  takeGranted(tenantId: string, robotId: string, nowMs: number): Promise<unknown[]>;
}
