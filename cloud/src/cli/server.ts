/**
 * Starts the control plane on a port: opens the store, loads the signing key (generating it on first
 * start) and the policy, builds the app and listens. `stop()` drains in-flight requests, then closes the
 * store, so every answered request's audit entry is durable and no accepted request is cut off.
 */
import { readFile } from 'node:fs/promises';
import { cannotRead, InvalidInputError, readJson, type TrustDocument } from '@pentagate/protocol';
import { type BuildAppOptions, type CloudApp, buildApp } from '../app/build-app.js';
import { loadSigningSeed } from '../keys/signing-key-file.js';
import { openStore } from '../store/open-store.js';

export interface ServerOptions {
  port: number;
  host: string;
  db: string;
  stateDir: string;
  policyFile?: string;
  signingKeyFile?: string;
  logOrigin?: string;
  custodyTrustFile?: string;
  app?: Partial<Omit<BuildAppOptions, 'store' | 'signingSeed'>>;
}

export interface RunningServer {
  app: CloudApp;
  url: string;
  proofKid: string;
  checkpointKid: string;
  signingKeyPath: string;
  generatedKey: boolean;
  stop(): Promise<void>;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new InvalidInputError(`${what}: ${cannotRead(path, err)}`);
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const seed = await loadSigningSeed({
    ...(options.signingKeyFile ? { keyFile: options.signingKeyFile } : {}),
    stateDir: options.stateDir,
  });
  const policy = options.policyFile
    ? { yamlText: await readText(options.policyFile, '--policy'), source: options.policyFile }
    : undefined;
  const custodyTrust = options.custodyTrustFile
    ? (readJson(await readText(options.custodyTrustFile, '--trust'), { what: '--trust' }) as TrustDocument)
    : undefined;
  const store = await openStore(options.db);
  let app: CloudApp;
  try {
    app = await buildApp({
      defaultMetrics: true,
      ...options.app,
      store,
      signingSeed: seed.seed,
      ...(options.logOrigin ? { logOrigin: options.logOrigin } : {}),
      ...(policy ? { policy } : {}),
      ...(custodyTrust ? { custodyTrust } : {}),
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const address = await app.listen({ port: options.port, host: options.host });
  return {
    app,
    url: address,
    proofKid: app.cloud.keys.proof.keyid,
    checkpointKid: app.cloud.keys.checkpoint.keyid,
    signingKeyPath: seed.path,
    generatedKey: seed.generated,
    stop: () => app.close(),
  };
}
