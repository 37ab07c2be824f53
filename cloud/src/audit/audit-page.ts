/**
 * One page of a tenant's audit entries, bounded by bytes as well as by count. An entry is as large as what
 * it records: an edge's shipped record may hold 1,024 violation texts of 1 KiB, so one robot key can make
 * every entry about 1 MiB, and a page of 200 (`/api/v1/audit/entries`) or 500 (`/api/v1/kernel/audit/events`)
 * such entries was read, parsed and serialised whole — hundreds of MB in the one process that serves every
 * tenant, per request. The page ends once MAX_AUDIT_PAGE_BYTES of entries are in it (at least one entry, so
 * paging always moves on), and the rows are read a few at a time, so no request holds more than that page
 * and one read's worth.
 */
import type { AuditEntry } from '@pentagate/protocol';
import { jsonBytes } from '../app/json-bytes.js';
import type { AuditEventQuery, KernelStore } from '../store/kernel-store.js';

/** Bytes of entries (as JSON) one page holds at most, beyond its first entry. */
export const MAX_AUDIT_PAGE_BYTES = 4 * 1024 * 1024;
/** Rows read from the store at a time. */
const ROWS_PER_READ = 32;

export interface AuditPage {
  entries: AuditEntry[];
  /** Entries matching the query are left beyond the page (cut by its count or its bytes). */
  more: boolean;
}

/** The entries `query` selects, in its order, at most `query.limit` of them and MAX_AUDIT_PAGE_BYTES. */
export async function readAuditPage(store: KernelStore, query: AuditEventQuery): Promise<AuditPage> {
  const entries: AuditEntry[] = [];
  let bytes = 0;
  for (;;) {
    const want = Math.min(ROWS_PER_READ, query.limit - entries.length);
    const last = entries[entries.length - 1];
    const from =
      last === undefined ? {} : query.newestFirst ? { beforeIndex: last.index } : { afterIndex: last.index };
    // one row more than wanted says whether any is left
    const records = await store.auditEvents({ ...query, ...from, limit: want + 1 });
    for (const { entry } of records.slice(0, want)) {
      const size = jsonBytes(entry);
      if (entries.length > 0 && bytes + size > MAX_AUDIT_PAGE_BYTES) return { entries, more: true };
      entries.push(entry);
      bytes += size;
    }
    if (records.length <= want) return { entries, more: false };
    if (entries.length >= query.limit) return { entries, more: true };
  }
}
