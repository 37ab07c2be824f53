/**
 * The "any signed byte" property: change one byte of anything signed — an envelope (payload,
 * payloadType, sig, keyid), a motor command (any field, any byte of its canonical form), a
 * checkpoint note (body or signature) or a Merkle proof — and verification fails.
 */
import {
  MerkleTree,
  TrustStore,
  acceptMotorCommand,
  createNoteSigner,
  dsseSign,
  dsseVerify,
  sha256,
  signCheckpoint,
  signMotorCommand,
  verifyCheckpoint,
  verifyCommandMac,
  verifyInclusion,
} from '@pentagate/crypto';
import { PAYLOAD_TYPES, canonicalBytes, fromBase64, toBase64 } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { entryFor, signerFromByte } from './fixtures/keys.js';
import { T0_MS, unsignedCommand } from './fixtures/motor-command.js';

const signer = signerFromByte(50);
const ORIGIN = 'log.example/tamper';
const trust = TrustStore.fromDocument({
  keys: [entryFor(signer, 'proof'), entryFor(signerFromByte(51), 'checkpoint', { name: ORIGIN })],
});
const noteSigner = createNoteSigner(ORIGIN, new Uint8Array(32).fill(51));
const flip = (bytes: Uint8Array, at: number, xor: number): Uint8Array => {
  const out = new Uint8Array(bytes);
  const i = at % out.length;
  out[i] = (out[i] as number) ^ xor;
  return out;
};
const flipChar = (s: string, at: number, xor: number): string =>
  new TextDecoder().decode(flip(new TextEncoder().encode(s), at, xor));
const xorByte = fc.integer({ min: 1, max: 255 });
const runs = { numRuns: 300 };

t.test('envelope: changing any byte of payload, payloadType, sig or keyid fails verification', async () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 200 }),
      fc.constantFrom('payload', 'payloadType', 'sig', 'keyid'),
      fc.nat(),
      xorByte,
      (payload, part, at, xor) => {
        const env = dsseSign(PAYLOAD_TYPES.inToto, payload, signer);
        dsseVerify(env, trust); // the original verifies
        const sig0 = env.signatures[0] as { keyid: string; sig: string };
        const tampered =
          part === 'payload'
            ? { ...env, payload: toBase64(flip(payload, at, xor)) }
            : part === 'payloadType'
              ? { ...env, payloadType: flipChar(env.payloadType, at, xor) }
              : part === 'sig'
                ? {
                    ...env,
                    signatures: [{ ...sig0, sig: toBase64(flip(fromBase64(sig0.sig, 'sig'), at, xor)) }],
                  }
                : { ...env, signatures: [{ ...sig0, keyid: flipChar(sig0.keyid, at, xor) }] };
        let refused = false;
        try {
          dsseVerify(tampered, trust);
        } catch {
          refused = true;
        }
        if (!refused) throw new Error(`tampered ${part} verified`);
      },
    ),
    runs,
  );
});

t.test('motor command: changing any field or any byte of its canonical form is refused', async () => {
  const key = new Uint8Array(32).fill(52);
  const keys = new Map([['0123456789abcdef', key]]);
  const state = { robotId: 'arm-7', epoch: 3, lastSeq: 6 };
  const signed = signMotorCommand(key, unsignedCommand());
  const fields = Object.keys(signed).filter((k) => k !== 'mac');
  fc.assert(
    fc.property(fc.constantFrom(...fields), fc.nat(), xorByte, (field, at, xor) => {
      const value = (signed as Record<string, unknown>)[field];
      const changed =
        typeof value === 'number'
          ? value + 1 + (at % 5)
          : typeof value === 'string'
            ? flipChar(value, at, xor)
            : { ...(value as object), kind: 'stop', reason: 'x' };
      const tampered = { ...signed, [field]: changed };
      if (verifyCommandMac(key, tampered)) throw new Error(`changed ${field} kept a valid MAC`);
      const r = acceptMotorCommand(state, tampered, { keys, nowMs: T0_MS + 10 });
      if (r.accepted) throw new Error(`changed ${field} was accepted`);
    }),
    runs,
  );
  const bytes = canonicalBytes(signed);
  fc.assert(
    fc.property(fc.nat(), xorByte, (at, xor) => {
      const r = acceptMotorCommand(state, flip(bytes, at, xor), { keys, nowMs: T0_MS + 10 });
      if (r.accepted) throw new Error(`byte ${at % bytes.length} ^ ${xor} was accepted`);
    }),
    runs,
  );
  t.ok(
    acceptMotorCommand(state, bytes, { keys, nowMs: T0_MS + 10 }).accepted,
    'the untouched bytes are accepted',
  );
});

t.test('checkpoint: changing any byte of the note (body or signature line) fails verification', async () => {
  fc.assert(
    fc.property(
      fc.nat(1_000_000),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.nat(),
      xorByte,
      (size, root, at, xor) => {
        const note = signCheckpoint({ origin: ORIGIN, size, rootHash: root }, noteSigner);
        verifyCheckpoint(note, trust);
        const tampered = flipChar(note, at, xor);
        let refused = false;
        try {
          verifyCheckpoint(tampered, trust);
        } catch {
          refused = true;
        }
        if (!refused) throw new Error(`tampered note verified:\n${tampered}`);
      },
    ),
    runs,
  );
});

t.test('inclusion proof: changing any byte of leaf hash, proof or root fails verification', async () => {
  const tree = new MerkleTree();
  for (let i = 0; i < 37; i++) tree.append(sha256(new Uint8Array([i])));
  fc.assert(
    fc.property(fc.nat(36), fc.nat(), xorByte, (index, at, xor) => {
      const proof = tree.inclusionProof(index);
      const all = [tree.leafHashAt(index), ...proof, tree.rootHash()];
      const target = at % all.length;
      const changed = all.map((h, i) => (i === target ? flip(h, at >> 6, xor) : h));
      const leaf = changed[0] as Uint8Array;
      const root = changed[changed.length - 1] as Uint8Array;
      if (verifyInclusion(leaf, index, tree.size, changed.slice(1, -1), root))
        throw new Error('tampered proof verified');
    }),
    runs,
  );
});
