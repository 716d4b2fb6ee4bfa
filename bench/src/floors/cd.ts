// cd-service's reads, as a minimal app does their work: the service's compiled store, opened on
// the same SQLite file (CD_DB_PATH), runs the same SQL; the answer is serialized the same way.
// Checking the query (ajv) is the service's layer, not the work: the floor takes it as given.
import { statSync } from 'node:fs';
import { type FloorSet, fromDist, sendJson } from './floor.js';

interface Store {
  readonly kind: string;
  list(query: unknown): Promise<{ items: unknown[]; total: number }>;
  ping(): Promise<void>;
}

/** The list parameters that are integers; the others are text. */
const INTEGERS = new Set(['before', 'limit', 'offset']);

/**
 * The service's store on its file, opened as openSqliteStore does but without taking the file's
 * lock, which the service holds: the same SQL, and the same check that the path still leads to
 * the opened file on each ping.
 */
async function openStore(): Promise<Store> {
  const file = process.env.CD_DB_PATH;
  if (!file) throw new Error('the cd floors need the service’s CD_DB_PATH');
  const { openCdDatabase, sqliteStore } = await fromDist<{
    openCdDatabase: (file: string) => unknown;
    sqliteStore: (db: unknown, file: object) => Store;
  }>('cd-service', 'store/sqlite.js');
  const opened = statSync(file, { bigint: true });
  return sqliteStore(openCdDatabase(file), { file, opened });
}

export const cdFloors: FloorSet = async () => {
  const store = await openStore();
  const { buildListQuery } = await fromDist<{ buildListQuery: (params: object) => unknown }>(
    'cd-service',
    'cd/query.js',
  );
  return {
    'healthz-json': {
      path: '/healthz',
      handle: async (ctx) => {
        await store.ping();
        sendJson(ctx, { status: 'ok', store: store.kind });
      },
    },
    'list-json': {
      path: '/cds',
      handle: async (ctx) => {
        const params = Object.fromEntries(
          Object.entries(ctx.query).map(([name, value]) => [
            name,
            INTEGERS.has(name) ? Number(value) : value,
          ]),
        );
        const page = await store.list(buildListQuery(params));
        ctx.set('X-Total-Count', String(page.total));
        sendJson(ctx, page.items);
      },
    },
  };
};
