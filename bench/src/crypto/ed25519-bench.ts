/**
 * Ed25519 (RFC 8032) sign and verify on both backends over the same message (the DSSE PAE of a
 * decision statement, ≈1 KiB), and the noble/node cost ratio that ARCHITECTURE.md §2 quotes (≈15× to sign).
 * The ratio is of medians: a mean or a tail also counts time spent waiting for a CPU on a busy
 * machine, which would make the ratio say more about the neighbours than about the backends.
 */
import { type Ed25519Backend, createEd25519Signer, ed25519Verify, pae } from '@pentagate/crypto';
import { PAYLOAD_TYPES, canonicalBytes } from '@pentagate/protocol';
import { type LatencyStats, type SectionResult, type SuiteContext, sectionOf } from '../harness/index.js';
import { sampleDecisionStatement } from '../fixtures/decision-statement.js';

/** A fixed seed: benchmarks must not depend on randomness. */
export const BENCH_SEED = new Uint8Array(32).map((_, i) => i + 1);

const SIGN_ITERATIONS: Record<Ed25519Backend, number> = { node: 10_000, noble: 2_000 };
const VERIFY_ITERATIONS: Record<Ed25519Backend, number> = { node: 10_000, noble: 1_000 };

function benchBackend(ctx: SuiteContext, backend: Ed25519Backend, message: Uint8Array): LatencyStats[] {
  const signer = createEd25519Signer(BENCH_SEED, backend);
  const signature = signer.sign(message);
  if (!ed25519Verify(signer.publicKey, message, signature, backend)) {
    throw new Error(`crypto bench: Ed25519 ${backend} does not verify its own signature`);
  }
  const suffix = backend === 'node' ? 'Node' : 'Noble';
  return [
    ctx.measureSync(`ed25519Sign${suffix}`, () => signer.sign(message), {
      iterations: SIGN_ITERATIONS[backend],
    }),
    ctx.measureSync(
      `ed25519Verify${suffix}`,
      () => ed25519Verify(signer.publicKey, message, signature, backend),
      { iterations: VERIFY_ITERATIONS[backend] },
    ),
  ];
}

export function benchEd25519(ctx: SuiteContext): SectionResult {
  const message = pae(PAYLOAD_TYPES.inToto, canonicalBytes(sampleDecisionStatement()));
  const [signNode, verifyNode] = benchBackend(ctx, 'node', message) as [LatencyStats, LatencyStats];
  const [signNoble, verifyNoble] = benchBackend(ctx, 'noble', message) as [LatencyStats, LatencyStats];
  const signRatio = signNoble.p50Us / signNode.p50Us;
  const verifyRatio = verifyNoble.p50Us / verifyNode.p50Us;
  return sectionOf([signNode, verifyNode, signNoble, verifyNoble], {
    rows: [
      { name: 'noble / node (p50)', sign: `${signRatio.toFixed(1)}×`, verify: `${verifyRatio.toFixed(1)}×` },
    ],
    figures: {
      'ed25519.signNobleOverNode': signRatio,
      'ed25519.verifyNobleOverNode': verifyRatio,
      'ed25519.messageBytes': message.length,
    },
    notes: [
      `Ed25519 message: DSSE PAE of a decision statement, ${message.length} bytes; verify includes the pinned ` +
        'validity rule (canonical S; the small-order key check is cached per key)',
    ],
  });
}
