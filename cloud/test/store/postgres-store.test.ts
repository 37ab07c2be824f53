import t from 'tap';
import { openStore } from '../../src/store/open-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { POSTGRES_URL, openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { storeConformance } from './conformance.js';

if (await requirePostgres(t)) {
  // every store opened by the suite lives in its own schema, dropped when the whole file ends
  storeConformance(t, () => openTestPostgres(t));

  t.test('migrates idempotently when a second replica opens the same schema', async (t) => {
    const first = await openTestPostgres(t);
    await first.createTenant({ id: 'ten_1', name: 'a', createdAtMs: 1 });
    const schema = first.schema!;
    const second = await PostgresStore.open({ url: POSTGRES_URL, schema });
    t.equal((await second.getTenant('ten_1'))?.name, 'a');
    t.equal(second.kind, 'postgres');
    await Promise.all([first.close(), second.close()]);
  });

  t.test('routes a postgres:// --db value to the PostgreSQL store', async (t) => {
    await t.rejects(openStore('postgres://nobody@127.0.0.1:1/none'), { code: 'STORE_UNAVAILABLE' });
  });

  t.test('refuses a schema name that is not a plain identifier', async (t) => {
    await t.rejects(PostgresStore.open({ url: POSTGRES_URL, schema: 'x; DROP TABLE y' }), {
      code: 'STORE_UNAVAILABLE',
    });
  });

  t.test('reports an unreachable server as a store error', async (t) => {
    await t.rejects(PostgresStore.open({ url: 'postgres://nobody:secret@127.0.0.1:1/none' }), {
      code: 'STORE_UNAVAILABLE',
      message: /ECONNREFUSED/,
    });
  });
}
