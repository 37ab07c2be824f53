/**
 * `pentagate verify proof|token|checkpoint|inclusion|consistency|kit`: the artifacts of the cloud's
 * decisions and of its audit log. Each help text lists exactly what is checked.
 */
import type { TrustStore } from '@pentagate/crypto';
import type { Command } from '@pentagate/protocol';
import { verifyAuditKit } from '../audit-kit.js';
import { verifyCheckpointNote } from '../checkpoint.js';
import { verifyConsistencyFile } from '../consistency.js';
import { tokenFromFileText, verifyGovernanceToken } from '../governance-token.js';
import { verifyInclusionFile } from '../inclusion.js';
import { readInputJson, readInputText } from '../input-files.js';
import { GOVERNANCE_TOKEN_PREFIX } from '@pentagate/crypto';
import { existsSync } from 'node:fs';
import { verifyProofPacket } from '../proof-packet.js';
import type { VerificationReport } from '../report.js';
import {
  APPROVAL_HELP,
  EXIT_CODES_HELP,
  NOT_AN_APPROVAL_EXIT,
  atOption,
  checkTime,
  emitReport,
  jsonOption,
  loadTrustFile,
  requireApprovalOption,
  requireTrust,
  trustOption,
} from './common.js';

const options = { trust: trustOption, json: jsonOption, at: atOption };
const CHECKPOINT_HELP =
  "  - the checkpoint note carries a valid Ed25519 signature by a trusted key of role 'checkpoint' whose\n" +
  '    name is the note signer name, and whose validity window covers the check time';

type Verify<T> = (input: T, trust: TrustStore, options: { atMs?: number }) => VerificationReport;

/**
 * The shape every single-file log artifact command shares: FILE --trust TRUST [--json] [--at ISO], read the
 * file, verify it against the trust file at the check time, print the report.
 */
function fileArtifactCommand<T>(spec: {
  path: string[];
  summary: string;
  description: string[];
  read: (file: string) => Promise<T>;
  verify: Verify<T>;
}): Command {
  return {
    path: spec.path,
    summary: spec.summary,
    usage: 'FILE --trust TRUST [--json] [--at ISO]',
    description: [...spec.description, '', EXIT_CODES_HELP].join('\n'),
    options,
    positionals: [1, 1],
    async run(args, io) {
      const trust = await requireTrust(args);
      const input = await spec.read(args.positionals[0]!);
      const time = checkTime(args);
      return emitReport(spec.verify(input, trust, { atMs: time?.atMs }), args, io, time);
    },
  };
}

/**
 * The token `verify token` checks: the argument itself when it is one (`pgt1.` and no file of that name: a
 * token copied from a propose answer is too long to be a file name, which failed with ENAMETOOLONG), else the
 * file it names.
 */
async function tokenArgument(arg: string): Promise<string> {
  if (arg.startsWith(`${GOVERNANCE_TOKEN_PREFIX}.`) && !existsSync(arg)) return arg.trim();
  return tokenFromFileText(await readInputText(arg, 'governance token'));
}

/** `--request FILE`: the request (JSON) a decision must be for, when given. */
async function requestOption(path: unknown): Promise<unknown> {
  return typeof path === 'string' ? readInputJson(path, 'request') : undefined;
}

/** `--tenant ID`: the tenant a decision must be of, when given. */
const TENANT_OPTION = {
  tenant: {
    type: 'string',
    valueName: 'ID',
    description:
      "The tenant the decision must be of (another tenant's decision of the same cloud is refused)",
  },
} as const;

function tenantOption(value: unknown): { tenantId?: string } {
  return typeof value === 'string' ? { tenantId: value } : {};
}

const TENANT_HELP =
  "  - with --tenant ID: the statement's tenantId is ID (one cloud signs every tenant's decisions with one\n" +
  "    key, and the same request can be sent in two tenants: without it, another tenant's decision verifies)";

export const logCommands: Command[] = [
  {
    path: ['verify', 'proof'],
    summary: 'Check a proof packet: decision signature, statement, audit-log inclusion',
    usage: 'FILE --trust TRUST [--request FILE] [--tenant ID] [--require-approval] [--json] [--at ISO]',
    description: [
      'FILE is a proof packet (JSON { v: 1, envelope, auditEntry?, inclusion?, checkpoint? }). Checks:',
      "  - the DSSE envelope is signed by a trusted key of role 'proof' over application/vnd.in-toto+json",
      '    (a key id missing from the trust file is named, and the command exits 2: nothing can be checked)',
      '  - the payload is an in-toto Statement v1 with the Pentagate decision predicate, naming the action',
      '    request by its SHA-256 digest',
      "  - the signing key's validity window covers the decision's issuedAt",
      '  - the decision is in force (issuedAt ≤ time ≤ expiresAt) at --at or the current clock;',
      '    a refusal (DENY, VETOED) is final and holds from issuedAt on',
      '  - with --request FILE (the propose or selfcorrect body as sent, JSON): the subject digest is',
      "    SHA-256(JCS(request)), so the packet is this call's decision and not another's",
      TENANT_HELP,
      'When the packet carries auditEntry, inclusion and checkpoint (all three or none):',
      "  - the entry's subjectDigest is SHA-256(JCS(envelope)), its index equals the proof's leafIndex and",
      "    the statement's auditLog.index, and the statement's auditLog.origin is the checkpoint's origin",
      CHECKPOINT_HELP,
      "  - the leaf hash of the entry's JCS bytes reaches the checkpoint root (RFC 6962 audit path)",
      '',
      'Example: pentagate verify proof dec_01J.json --trust keys.json --at 2025-06-01T12:00:00Z',
      '',
      APPROVAL_HELP,
      '',
      EXIT_CODES_HELP,
      `With --require-approval: ${NOT_AN_APPROVAL_EXIT} valid, but the decision is not an approval (DENY, VETOED, REQUIRE_HUMAN,`,
      'HELD_FOR_VETO): the tool must not run on it.',
    ].join('\n'),
    options: {
      ...options,
      request: {
        type: 'string',
        valueName: 'FILE',
        description: 'The request (JSON) the decision must be for',
      },
      ...TENANT_OPTION,
      'require-approval': requireApprovalOption,
    },
    positionals: [1, 1],
    async run(args, io) {
      const trust = await requireTrust(args);
      const packet = await readInputJson(args.positionals[0]!, 'proof packet');
      const request = await requestOption(args.options.request);
      const time = checkTime(args);
      const report = verifyProofPacket(packet, trust, {
        ...(request !== undefined ? { request } : {}),
        ...tenantOption(args.options.tenant),
        ...(time ? { atMs: time.atMs } : {}),
      });
      return emitReport(report, args, io, time);
    },
  },
  {
    path: ['verify', 'token'],
    summary: 'Check a governance token (pgt1.…): the decision signature and statement',
    usage: 'FILE|TOKEN --trust TRUST [--request FILE] [--tenant ID] [--json] [--at ISO]',
    description: [
      'FILE holds a governance token `pgt1.<kid>.<payload>.<sig>`, or a JSON object with a',
      '"governance_token" string (a saved propose response); the token itself may be given instead of a',
      'file (an argument starting `pgt1.` that names no file). The token is expanded to its DSSE envelope',
      'and checked like the envelope of a proof packet:',
      "  - signed by a trusted key of role 'proof' (unknown key ids are named), valid at issuedAt",
      '  - the payload is an in-toto Statement v1 with the Pentagate decision predicate and a subject digest',
      '  - the decision is in force at --at or the current clock',
      '  - the decision is an approval (outcome ALLOW, or APPROVED by an operator): a signed refusal or a',
      '    decision still waiting for an operator (REQUIRE_HUMAN, HELD_FOR_VETO) is no permission to run',
      '  - with --request FILE (the propose or selfcorrect body as sent, JSON): the subject digest is',
      '    SHA-256(JCS(request)), so the token is for that call and no other',
      TENANT_HELP,
      'A token carries no audit-log proof; use `pentagate verify proof` for that.',
      '',
      EXIT_CODES_HELP,
    ].join('\n'),
    options: {
      ...options,
      request: { type: 'string', valueName: 'FILE', description: 'The request (JSON) the token must be for' },
      ...TENANT_OPTION,
    },
    positionals: [1, 1],
    async run(args, io) {
      const trust = await requireTrust(args);
      const token = await tokenArgument(args.positionals[0]!);
      const request = await requestOption(args.options.request);
      const time = checkTime(args);
      const report = verifyGovernanceToken(token, trust, {
        ...(request !== undefined ? { request } : {}),
        ...tenantOption(args.options.tenant),
        ...(time ? { atMs: time.atMs } : {}),
      });
      return emitReport(report, args, io, time);
    },
  },
  fileArtifactCommand({
    path: ['verify', 'checkpoint'],
    summary: 'Check a signed audit-log checkpoint (C2SP signed note)',
    description: [
      'FILE is the signed-note text of a checkpoint (origin, size, base64 root, blank line, signatures).',
      'Checks:',
      CHECKPOINT_HELP,
      '  - the body is a well-formed tlog checkpoint (origin, tree size, 32-byte root)',
    ],
    read: (file) => readInputText(file, 'checkpoint'),
    verify: verifyCheckpointNote,
  }),
  fileArtifactCommand({
    path: ['verify', 'inclusion'],
    summary: 'Check that an audit entry is in the log under a signed checkpoint',
    description: [
      'FILE is JSON { entry | leaf, leafIndex, treeSize, hashes[], checkpoint }: an audit entry (or the',
      'base64 leaf bytes), its RFC 6962 audit path (base64 SHA-256 hashes, leaf to root) and the signed',
      'checkpoint note. Checks:',
      CHECKPOINT_HELP,
      "  - treeSize is the checkpoint's size, and an entry's index equals leafIndex",
      '  - SHA-256(0x00 || JCS(entry)) with the audit path reaches the checkpoint root',
      'A proof with missing, extra or wrongly encoded hashes does not verify or is refused as unreadable.',
    ],
    read: (file) => readInputJson(file, 'inclusion file'),
    verify: verifyInclusionFile,
  }),
  fileArtifactCommand({
    path: ['verify', 'consistency'],
    summary: 'Check that a newer checkpoint extends an older one (append-only log)',
    description: [
      'FILE is JSON { oldSize, newSize, hashes[], oldCheckpoint, newCheckpoint }: the RFC 6962 consistency',
      'proof and the two signed checkpoint notes it connects. Checks:',
      CHECKPOINT_HELP.replace('the checkpoint note carries', 'each checkpoint note carries'),
      '  - both checkpoints are of the same log (origin), and oldSize/newSize are their sizes',
      '  - the proof shows the newer tree extends the older one: nothing logged was rewritten or removed',
    ],
    read: (file) => readInputJson(file, 'consistency file'),
    verify: verifyConsistencyFile,
  }),
  {
    path: ['verify', 'kit'],
    summary: 'Check an offline audit kit end to end (manifest, entries, Merkle root, signatures)',
    usage: 'DIR (--trust TRUST | --self-asserted-trust) [--json] [--at ISO]',
    description: [
      'DIR is an audit kit from `pentagate cloud audit export`: manifest.json, checkpoint.note,',
      'entries.jsonl, trust.json. Checks:',
      '  - every file the manifest lists has the SHA-256 it states; no unlisted file is present',
      CHECKPOINT_HELP,
      "  - the checkpoint's origin and size are the manifest's origin and treeSize",
      '  - entries.jsonl has treeSize lines, each the canonical JCS of an audit entry whose index is its',
      '    line number from 0',
      '  - the RFC 6962 root over all entries equals the checkpoint root (the kit is the whole log)',
      '  - every entry carrying a DSSE envelope (data.envelope) verifies with a key of the right role,',
      "    and its subjectDigest, when present, is the envelope's digest",
      "  - no entry was appended after the checkpoint key's retirement (notAfter): a checkpoint carries no",
      '    time, and one over a later entry was signed after its key was retired',
      'Pass the keys you obtained independently (GET /api/v1/keys) with --trust. Without it the check',
      '"trust anchor" fails: the kit\'s own trust.json only shows the kit is self-consistent (a kit forged',
      'whole, with keys of its own, passes every other check). --self-asserted-trust checks just that and',
      'lets the trust anchor pass.',
      '',
      EXIT_CODES_HELP,
    ].join('\n'),
    options: {
      ...options,
      trust: { ...trustOption, description: `${trustOption.description} (or --self-asserted-trust)` },
      'self-asserted-trust': {
        type: 'boolean',
        description: "check against the kit's own trust.json: self-consistency only, not who signed the log",
      },
    },
    positionals: [1, 1],
    async run(args, io) {
      const trustPath = args.options.trust;
      const trust = typeof trustPath === 'string' ? await loadTrustFile(trustPath) : undefined;
      const time = checkTime(args);
      const report = await verifyAuditKit(args.positionals[0]!, {
        ...(trust ? { trust } : {}),
        selfAssertedTrust: args.options['self-asserted-trust'] === true,
        ...(time ? { atMs: time.atMs } : {}),
      });
      // after the kit was read: a kit that cannot be read gets its one error line alone
      if (!trust) io.err("note: no --trust given; checked against the kit's own trust.json (self-asserted)");
      return emitReport(report, args, io, time);
    },
  },
];
