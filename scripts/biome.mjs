#!/usr/bin/env node
// Runs the Biome linter/formatter binary for this machine. The `@biomejs/biome` wrapper lists optional
// builds for every platform, and the registry reachable here serves only the Linux ones, so `npm ci`
// refused a lock file without the others; the Linux builds are therefore direct optional dependencies.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const builds = { x64: '@biomejs/cli-linux-x64/biome', arm64: '@biomejs/cli-linux-arm64/biome' };
const build = process.platform === 'linux' ? builds[process.arch] : undefined;
let binary;
try {
  binary = build && require.resolve(build);
} catch {
  binary = undefined;
}
if (!binary) {
  console.error(
    `biome: no Biome build for ${process.platform}-${process.arch} is installed. ` +
      'Install one with `npm install --no-save @biomejs/biome` and run `npx biome` instead.',
  );
  process.exit(2);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);
