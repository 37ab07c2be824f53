/**
 * `npm run bench -- crypto`: in one run, the motor-command MAC and JCS, Ed25519
 * sign/verify on both backends with their ratio, DSSE envelopes and RFC 6962 Merkle throughput.
 * Run on one core: these are single-threaded costs.
 */
import { type BenchSuite, mergeSections } from '../harness/index.js';
import { benchDsse } from '../crypto/dsse-bench.js';
import { benchEd25519 } from '../crypto/ed25519-bench.js';
import { benchJcsAndMac } from '../crypto/jcs-and-mac-bench.js';
import { benchMerkle } from '../crypto/merkle-bench.js';

const suite: BenchSuite = {
  name: 'crypto',
  description: '@pentagate/crypto: HMAC command MAC, JCS, Ed25519 (node vs noble), DSSE, Merkle',
  oneCore: true,
  async run(ctx) {
    ctx.log('HMAC and JCS…');
    const mac = benchJcsAndMac(ctx);
    ctx.log('Ed25519…');
    const ed25519 = benchEd25519(ctx);
    ctx.log('DSSE…');
    const dsse = benchDsse(ctx);
    ctx.log('Merkle…');
    const merkle = benchMerkle(ctx);
    return mergeSections('crypto', [mac, ed25519, dsse, merkle]);
  },
};
export default suite;
