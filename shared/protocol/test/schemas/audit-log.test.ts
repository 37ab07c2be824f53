import t from 'tap';
import {
  AuditEntrySchema,
  AuditKitManifestSchema,
  CheckpointSchema,
  ConsistencyProofSchema,
  DecisionStatementSchema,
  InclusionProofSchema,
  ProofPacketSchema,
  conforms,
} from '@pentagate/protocol';
import {
  HASH_B64,
  auditEntry,
  auditKitManifest,
  checkpoint,
  consistencyProof,
  decisionStatement,
  inclusionProof,
  proofPacket,
} from './fixtures.js';
import { drop, refusesEach, set } from './refusal.js';

refusesEach(t, 'audit entry', AuditEntrySchema, auditEntry, [
  ['missing data', drop('/data'), '/data'],
  ['missing at', drop('/at'), '/at'],
  ['negative index', set('/index', -1), '/index'],
  ['index as a string', set('/index', '0'), '/index'],
  ['type with upper case', set('/type', 'Decision'), '/type'],
  ['at as Unix ms', set('/at', 1_750_000_000_000), '/at'],
  ['at without a zone', set('/at', '2025-06-01T12:00:00'), '/at'],
  ['subjectDigest too short', set('/subjectDigest', 'ab'), '/subjectDigest'],
  ['data as a string', set('/data', 'x'), '/data'],
  ['data as null', set('/data', null), '/data'],
  ['extra member', set('/hash', 'x'), '/hash'],
]);

t.test('audit entry: the entry types the cloud writes are accepted', async (t) => {
  for (const type of [
    'agent.registered',
    'decision',
    'execution',
    'approval',
    'veto',
    'key',
    'policy',
    'edge.verdict',
    'refusal',
  ]) {
    t.ok(conforms(AuditEntrySchema, { ...auditEntry(), type }), type);
  }
  t.ok(
    conforms(AuditEntrySchema, { v: 1, index: 0, type: 'key', at: new Date(0).toISOString(), data: {} }),
    'minimal entry',
  );
});

refusesEach(t, 'checkpoint', CheckpointSchema, checkpoint, [
  ['missing rootHash', drop('/rootHash'), '/rootHash'],
  ['root hash of 31 bytes', set('/rootHash', `${'q'.repeat(40)}Aw==`), '/rootHash'],
  ['root hash in hex', set('/rootHash', 'a'.repeat(64)), '/rootHash'],
  ['origin with a newline', set('/origin', 'log\n7'), '/origin'],
  ['origin with a leading space', set('/origin', ' log'), '/origin'],
  ['empty origin', set('/origin', ''), '/origin'],
  ['negative size', set('/size', -1), '/size'],
  ['extra member', set('/timestamp', 1), '/timestamp'],
]);

refusesEach(t, 'inclusion proof', InclusionProofSchema, inclusionProof, [
  ['missing hashes', drop('/hashes'), '/hashes'],
  ['tree of size 0', set('/treeSize', 0), '/treeSize'],
  ['fractional leafIndex', set('/leafIndex', 0.5), '/leafIndex'],
  ['a hash that is not base64', set('/hashes/1', '!'), '/hashes/1'],
  [
    '65 hashes (more than any tree of 2^53 leaves needs)',
    set('/hashes', Array(65).fill(HASH_B64)),
    '/hashes',
  ],
  ['extra member', set('/rootHash', HASH_B64), '/rootHash'],
]);

refusesEach(t, 'consistency proof', ConsistencyProofSchema, consistencyProof, [
  ['missing newSize', drop('/newSize'), '/newSize'],
  ['oldSize as a string', set('/oldSize', '3'), '/oldSize'],
  ['a truncated hash', set('/hashes/0', HASH_B64.slice(0, 40)), '/hashes/0'],
  ['extra member', set('/origin', 'x'), '/origin'],
]);

refusesEach(t, 'decision statement', DecisionStatementSchema, decisionStatement, [
  ['statement type of another version', set('/_type', 'https://in-toto.io/Statement/v0.1'), '/_type'],
  ['another predicate type', set('/predicateType', 'https://slsa.dev/provenance/v1'), '/predicateType'],
  ['no subject', set('/subject', []), '/subject'],
  ['two subjects', set('/subject/1', { name: 'b', digest: { sha256: 'a'.repeat(64) } }), '/subject'],
  ['subject digest in another algorithm', set('/subject/0/digest/sha512', 'ab'), '/subject/0/digest/sha512'],
  ['unknown outcome', set('/predicate/outcome', 'MAYBE'), '/predicate/outcome'],
  ['negative reserved budget', set('/predicate/reservedBudget', -1), '/predicate/reservedBudget'],
  ['NaN reserved budget', set('/predicate/reservedBudget', Number.NaN), '/predicate/reservedBudget'],
  ['missing policy digest', drop('/predicate/policy/digest'), '/predicate/policy/digest'],
  ['issuedAt as Unix ms', set('/predicate/issuedAt', 1), '/predicate/issuedAt'],
  ['audit index negative', set('/predicate/auditLog/index', -1), '/predicate/auditLog/index'],
  ['tiers as an array', set('/predicate/tiers', []), '/predicate/tiers'],
  ['extra member in the predicate', set('/predicate/approvedBy', 'me'), '/predicate/approvedBy'],
]);

t.test('decision statement: the human outcomes are accepted', async (t) => {
  for (const outcome of ['ALLOW', 'DENY', 'REQUIRE_HUMAN', 'HELD_FOR_VETO', 'APPROVED', 'VETOED']) {
    const s = decisionStatement();
    s.predicate.outcome = outcome as typeof s.predicate.outcome;
    t.ok(conforms(DecisionStatementSchema, s), outcome);
  }
});

refusesEach(t, 'proof packet', ProofPacketSchema, proofPacket, [
  ['missing envelope', drop('/envelope'), '/envelope'],
  ['version 2', set('/v', 2), '/v'],
  ['envelope without signatures', set('/envelope/signatures', []), '/envelope/signatures'],
  ['audit entry with a bad index', set('/auditEntry/index', -3), '/auditEntry/index'],
  ['inclusion with a bad hash', set('/inclusion/hashes/0', 'x'), '/inclusion/hashes/0'],
  ['checkpoint as parsed JSON instead of note text', set('/checkpoint', checkpoint()), '/checkpoint'],
  ['checkpoint note beyond 16 KiB', set('/checkpoint', 'x'.repeat(16 * 1024 + 1)), '/checkpoint'],
  ['extra member', set('/governanceToken', 'pgt1.x'), '/governanceToken'],
]);

t.test('proof packet: only the envelope is required', async (t) => {
  const { envelope } = proofPacket();
  t.ok(conforms(ProofPacketSchema, { v: 1, envelope }));
});

refusesEach(t, 'audit kit manifest', AuditKitManifestSchema, auditKitManifest, [
  ['missing files', drop('/files'), '/files'],
  ['no files', set('/files', {}), '/files'],
  [
    'a file name that climbs out of the kit',
    set('/files/..~1..~1etc~1passwd', 'a'.repeat(64)),
    '/files/..~1..~1etc~1passwd',
  ],
  ['a hidden file name', set('/files/.env', 'a'.repeat(64)), '/files/.env'],
  ['a file digest in upper case', set('/files/trust.json', 'A'.repeat(64)), '/files/trust.json'],
  ['treeSize negative', set('/treeSize', -1), '/treeSize'],
  ['createdAt as Unix ms', set('/createdAt', 0), '/createdAt'],
  ['extra member', set('/signature', 'x'), '/signature'],
]);
