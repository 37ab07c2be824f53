/** `pentagate cloud tenant create NAME`: a new tenant, recorded in the audit log. */
import type { Command } from '@pentagate/protocol';
import { createTenant } from '../tenants/tenant-admin.js';
import { JSON_OPTION, STATE_OPTIONS, withStore } from './state.js';

export const tenantCreateCommand: Command = {
  path: ['cloud', 'tenant', 'create'],
  summary: 'Create a tenant (prints its id)',
  usage: 'NAME [--db sqlite:PATH|postgres://…] [--json]',
  description:
    'Creates a tenant in the store and appends a `tenant` entry to the audit log.\n' +
    'Prints the tenant id; with --json prints { "id": … }. Issue keys for it with `pentagate cloud apikey issue`.\n' +
    'Exit codes: 0 created, 2 bad usage or an unusable store.',
  options: { ...STATE_OPTIONS, ...JSON_OPTION },
  positionals: [1, 1],
  async run(args, io) {
    const tenant = await withStore(args, (store) => createTenant(store, args.positionals[0]!));
    io.out(args.options.json ? JSON.stringify({ id: tenant.id, name: tenant.name }) : tenant.id);
    return 0;
  },
};
