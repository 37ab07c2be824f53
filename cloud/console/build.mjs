// Bundles the operator console (cloud/console/src) into cloud/console-dist with esbuild: one ES module,
// one stylesheet and the page, served by the cloud at /console (cloud/src/console). The shared packages are
// bundled from their TypeScript sources; their few Node built-ins get browser stand-ins (shims/), and Ed25519
// verification runs on the noble backend.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here('../console-dist/');
mkdirSync(out, { recursive: true });

/** Node built-ins the shared packages import, mapped to browser stand-ins. */
const SHIMS = {
  'node:crypto': here('shims/node-crypto.ts'),
  'node:fs': here('shims/node-unavailable.ts'),
  'node:fs/promises': here('shims/node-unavailable.ts'),
  'node:path': here('shims/node-unavailable.ts'),
  'node:util': here('shims/node-unavailable.ts'),
};

const browserShims = {
  name: 'browser-shims',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => {
      const path = SHIMS[args.path];
      if (!path)
        throw new Error(
          `console bundle: no browser stand-in for ${args.path} (imported by ${args.importer})`,
        );
      return { path };
    });
    // @pentagate/crypto's node:crypto Ed25519 backend is the default of its verifiers: in the page it is the
    // noble backend under the node backend's names.
    build.onResolve({ filter: /\/ed25519-node\.js$/ }, () => ({ path: here('shims/ed25519-node.ts') }));
    // TypeBox's compiler generates code with `new Function`, which the CSP forbids: the page interprets.
    build.onResolve({ filter: /^@sinclair\/typebox\/compiler$/ }, () => ({
      path: here('shims/typebox-compiler.ts'),
    }));
  },
};

await esbuild.build({
  entryPoints: [here('src/main.ts')],
  outfile: `${out}console.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  conditions: ['pentagate-source'],
  inject: [here('shims/buffer-global.ts')],
  plugins: [browserShims],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(here('src/index.html'), `${out}index.html`);
copyFileSync(here('src/console.css'), `${out}console.css`);
