import { createPublicKey, verify as opensslVerify } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import {
  type Ed25519Backend,
  createEd25519Signer,
  ed25519KeyId,
  ed25519PublicKey,
  ed25519Verify,
  generateEd25519,
  publicKeyProblem,
} from '@pentagate/crypto';
import fc from 'fast-check';
import t from 'tap';
import {
  L,
  NON_CANONICAL_IDENTITY,
  SMALL_ORDER_KEYS,
  addTorsion,
  fromLittleEndian,
  toLittleEndian,
  withNonCanonicalS,
} from './fixtures/ed25519-points.js';

const backends: Ed25519Backend[] = ['node', 'noble'];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** OpenSSL's own verdict, without the pinned rule in front of it. */
function rawOpenSsl(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
  return opensslVerify(null, message, createPublicKey({ key: der, format: 'der', type: 'spki' }), signature);
}

t.test('RFC 8032 §7.1 test 1 and test 3 on both backends', async (t) => {
  const cases = [
    {
      seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
      pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
      msg: '',
      sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    },
    {
      seed: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
      pub: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
      msg: 'af82',
      sig: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
    },
  ];
  for (const c of cases) {
    for (const backend of backends) {
      const signer = createEd25519Signer(Buffer.from(c.seed, 'hex'), backend);
      t.equal(hex(signer.publicKey), c.pub, `${backend}: public key`);
      t.equal(signer.keyid, ed25519KeyId(signer.publicKey), `${backend}: keyid`);
      t.equal(hex(signer.sign(Buffer.from(c.msg, 'hex'))), c.sig, `${backend}: signature`);
      t.ok(ed25519Verify(signer.publicKey, Buffer.from(c.msg, 'hex'), Buffer.from(c.sig, 'hex'), backend));
      t.equal(hex(ed25519PublicKey(Buffer.from(c.seed, 'hex'), backend)), c.pub);
    }
  }
});

t.test('generateEd25519 makes a usable key pair', async (t) => {
  const { privateKey, publicKey } = generateEd25519();
  t.equal(privateKey.length, 32);
  t.same(publicKey, ed25519PublicKey(privateKey, 'noble'));
  t.equal(publicKeyProblem(publicKey), undefined);
});

t.test('differential: both backends sign byte-identically and agree on every verdict', async () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ maxLength: 300 }),
      fc.nat(63),
      fc.integer({ min: 1, max: 255 }),
      fc.uint8Array({ minLength: 64, maxLength: 64 }),
      (seed, message, at, xor, randomSig) => {
        const node = createEd25519Signer(seed, 'node');
        const noble = createEd25519Signer(seed, 'noble');
        const sig = node.sign(message);
        if (hex(sig) !== hex(noble.sign(message))) throw new Error('signatures differ');
        const mutated = new Uint8Array(sig);
        mutated[at] = (mutated[at] as number) ^ xor;
        const candidates: [Uint8Array, boolean][] = [
          [sig, true],
          [mutated, false],
          [withNonCanonicalS(sig), false],
          [randomSig, false],
        ];
        for (const [candidate, expected] of candidates) {
          const a = ed25519Verify(node.publicKey, message, candidate, 'node');
          const b = ed25519Verify(node.publicKey, message, candidate, 'noble');
          if (a !== b || a !== expected)
            throw new Error(`verdicts node=${a} noble=${b}, expected ${expected}`);
        }
      },
    ),
    { numRuns: 150 },
  );
});

t.test(
  'non-canonical S (S + L) is refused by both backends and by OpenSSL and noble themselves',
  async (t) => {
    const signer = createEd25519Signer(new Uint8Array(32).fill(3));
    const message = Buffer.from('move arm');
    const lax = withNonCanonicalS(signer.sign(message));
    for (const backend of backends) t.notOk(ed25519Verify(signer.publicKey, message, lax, backend), backend);
    t.notOk(rawOpenSsl(signer.publicKey, message, lax), 'OpenSSL checks S < L itself');
    t.notOk(ed25519.verify(lax, message, signer.publicKey), 'noble checks S < L itself');
  },
);

t.test('small-order public keys are refused; OpenSSL alone would accept forgeries for some', async (t) => {
  const message = Buffer.from('any message at all');
  let opensslAccepted = 0;
  for (const key of SMALL_ORDER_KEYS) {
    t.match(publicKeyProblem(key), /small-order|not a canonical/, hex(key));
    // R = A, S = 0 satisfies [S]B = R + [k]A whenever (k + 1)A = 0.
    const forged = new Uint8Array(64);
    forged.set(key);
    if (rawOpenSsl(key, message, forged)) opensslAccepted++;
    for (const backend of backends)
      t.notOk(ed25519Verify(key, message, forged, backend), `${backend} ${hex(key)}`);
  }
  t.ok(opensslAccepted > 0, `raw OpenSSL accepted a forgery for ${opensslAccepted} of 8 small-order keys`);
});

t.test('non-canonical and mixed-order keys are refused', async (t) => {
  const message = Buffer.from('x');
  const forged = new Uint8Array(64);
  forged[0] = 1; // R = canonical identity, S = 0
  t.ok(rawOpenSsl(NON_CANONICAL_IDENTITY, message, forged), 'OpenSSL loads y = p + 1 and accepts S = 0');
  t.match(publicKeyProblem(NON_CANONICAL_IDENTITY), /not a canonical point encoding/);
  for (const backend of backends) t.notOk(ed25519Verify(NON_CANONICAL_IDENTITY, message, forged, backend));
  const honest = createEd25519Signer(new Uint8Array(32).fill(5)).publicKey;
  t.match(publicKeyProblem(addTorsion(honest)), /mixed-order/);
  const notOnCurve = new Uint8Array(32);
  notOnCurve[0] = 2; // y = 2 has no x on the curve
  t.match(publicKeyProblem(notOnCurve), /not a point/);
  const negativeZero = new Uint8Array(32);
  negativeZero[0] = 1;
  negativeZero[31] = 0x80; // x = 0 with the sign bit set
  t.ok(publicKeyProblem(negativeZero));
});

t.test(
  'a signer-made R with a small-order component: cofactored and cofactorless disagree, we pin cofactorless',
  async (t) => {
    // A malicious signer picks R = rB + T (T of order 8) and computes S honestly for that R. The cofactored
    // equation ([8]SB = [8]R + [8]kA) accepts it, the cofactorless one (SB = R + kA, OpenSSL's) does not.
    const seed = new Uint8Array(32).fill(9);
    const message = Buffer.from('torsion');
    const { scalar: a, point: A } = ed25519.utils.getExtendedPublicKey(seed);
    const r = 123456789n;
    const R = ed25519.Point.BASE.multiply(r).add(ed25519.Point.fromBytes(SMALL_ORDER_KEYS[1] as Uint8Array));
    const rBytes = R.toBytes();
    const pub = A.toBytes();
    const k = fromLittleEndian(sha512(Buffer.concat([rBytes, pub, message]))) % L;
    const sig = Buffer.concat([rBytes, toLittleEndian((r + k * a) % L)]);
    t.ok(ed25519.verify(sig, message, pub), "noble's own (cofactored) verify accepts it");
    t.notOk(rawOpenSsl(pub, message, sig), 'OpenSSL (cofactorless) refuses it');
    for (const backend of backends)
      t.notOk(ed25519Verify(pub, message, sig, backend), `${backend} refuses it`);
  },
);

t.test('bad inputs: wrong lengths are invalid, a bad seed or backend throws', async (t) => {
  const signer = createEd25519Signer(new Uint8Array(32).fill(1));
  const sig = signer.sign(new Uint8Array([1]));
  t.notOk(ed25519Verify(signer.publicKey, new Uint8Array([1]), sig.subarray(0, 63)));
  t.notOk(ed25519Verify(signer.publicKey.subarray(0, 31), new Uint8Array([1]), sig));
  t.notOk(ed25519Verify(signer.publicKey, 'x' as unknown as Uint8Array, sig));
  t.throws(() => createEd25519Signer(new Uint8Array(31)), {
    message: 'Ed25519 seed: expected 32 bytes, got 31',
  });
  t.throws(
    () => ed25519Verify(signer.publicKey, new Uint8Array(), sig, 'wasm' as Ed25519Backend),
    RangeError,
  );
  t.throws(() => signer.sign('text' as unknown as Uint8Array), /message: expected a Uint8Array/);
});
