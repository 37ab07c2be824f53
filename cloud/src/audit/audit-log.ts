/**
 * The verifiable audit log (ARCHITECTURE.md §5): entries are appended through the store (durable before the
 * caller answers), and an RFC 6962 Merkle tree over their leaf hashes is kept in memory to serve signed
 * C2SP checkpoints, inclusion proofs and consistency proofs.
 *
 * The store hands out indices, not this class, so several replicas can append to one PostgreSQL log; each
 * replica's tree catches up from the stored leaf hashes before it answers a proof request.
 */
import { MerkleTree, type NoteSigner, signCheckpoint } from '@pentagate/crypto';
import { type AuditEntry, type ConsistencyProof, type InclusionProof, toBase64 } from '@pentagate/protocol';
import { ApiError } from '../app/errors.js';
import { StoreError } from '../store/store-error.js';
import type { AuditRecord } from '../store/records.js';
import type { AuditEntryBuilder, Store } from '../store/store.js';

/** What a caller says about an event; the log adds `v`, `index` and `at`. */
export type AuditEvent = Omit<AuditEntry, 'v' | 'index' | 'at'>;

export interface SignedCheckpoint {
  size: number;
  rootHash: Uint8Array;
  /** The C2SP signed note. */
  note: string;
}

/** Leaf hashes fetched per store query while catching up. */
const CATCH_UP_BATCH = 10_000;

export class AuditLog {
  readonly origin: string;
  readonly #store: Store;
  readonly #noteSigner: NoteSigner;
  readonly #tree = MerkleTree.fromLeafHashes([]);
  #chain: Promise<void> = Promise.resolve();
  #lastCheckpoint: SignedCheckpoint | undefined;

  constructor(store: Store, origin: string, noteSigner: NoteSigner) {
    this.#store = store;
    this.origin = origin;
    this.#noteSigner = noteSigner;
  }

  /** A builder for `store.appendAudit` and friends: the entry for `event` at whatever index it gets. */
  static builder(event: AuditEvent, nowMs: number): AuditEntryBuilder {
    const at = new Date(nowMs).toISOString();
    return (index) => ({ v: 1, index, at, ...withoutUndefined(event) }) as AuditEntry;
  }

  /** Appends one entry durably and returns it with its index. */
  append(event: AuditEvent, nowMs: number = Date.now()): Promise<AuditRecord> {
    return this.#store.appendAudit(AuditLog.builder(event, nowMs));
  }

  /** Brings the in-memory tree up to the store's size; catch-ups run one after another. */
  catchUp(): Promise<number> {
    const run = this.#chain.then(() => this.#catchUpNow());
    this.#chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async #catchUpNow(): Promise<number> {
    const target = await this.#store.auditSize();
    while (this.#tree.size < target) {
      const from = this.#tree.size;
      const to = Math.min(target, from + CATCH_UP_BATCH);
      const hashes = await this.#store.auditLeafHashes(from, to);
      // Indices are contiguous from 0: a range with rows missing was changed outside the cloud (the
      // append-only triggers dropped). Appending what came back would put leaves at the wrong positions,
      // and a checkpoint over that tree would vouch for a log that does not exist.
      if (hashes.length !== to - from) {
        throw new StoreError(
          `audit log: expected ${to - from} entries at indexes ${from} to ${to - 1}, the store holds ${hashes.length}`,
        );
      }
      for (const h of hashes) this.#tree.appendLeafHash(h);
    }
    return this.#tree.size;
  }

  /** The latest signed checkpoint (signed again only when the log grew). */
  async checkpoint(): Promise<SignedCheckpoint> {
    const size = await this.catchUp();
    const last = this.#lastCheckpoint;
    if (last && last.size === size) return last;
    const rootHash = this.#tree.rootHash(size);
    const note = signCheckpoint({ origin: this.origin, size, rootHash }, this.#noteSigner);
    this.#lastCheckpoint = { size, rootHash, note };
    return this.#lastCheckpoint;
  }

  /** The leaf hash at `index` as this tree holds it (caught up to at least index + 1 by the caller). */
  leafHashAt(index: number): Uint8Array {
    return this.#tree.leafHashAt(index);
  }

  /** RFC 6962 §2.1.1 audit path of `leafIndex` in the tree of `treeSize` leaves. */
  async inclusion(leafIndex: number, treeSize: number): Promise<InclusionProof> {
    const size = await this.catchUp();
    if (treeSize < 1 || treeSize > size || leafIndex >= treeSize) {
      throw new ApiError(
        'INVALID_PROOF_RANGE',
        `inclusion: expected 0 <= index < size <= ${size} (the current log size), got index ${leafIndex}, size ${treeSize}`,
      );
    }
    const hashes = this.#tree.inclusionProof(leafIndex, treeSize).map((h) => toBase64(h));
    return { leafIndex, treeSize, hashes };
  }

  /** RFC 6962 §2.1.2 consistency proof between two sizes of this log. */
  async consistency(oldSize: number, newSize: number): Promise<ConsistencyProof> {
    const size = await this.catchUp();
    if (oldSize > newSize || newSize > size) {
      throw new ApiError(
        'INVALID_PROOF_RANGE',
        `consistency: expected 0 <= old <= new <= ${size} (the current log size), got old ${oldSize}, new ${newSize}`,
      );
    }
    const hashes = this.#tree.consistencyProof(oldSize, newSize).map((h) => toBase64(h));
    return { oldSize, newSize, hashes };
  }
}

function withoutUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}
