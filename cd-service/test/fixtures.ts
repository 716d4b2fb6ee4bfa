import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { CdStore } from '../src/store/store.js';
import { tempDir } from './helpers.js';
import { type RunningServer, startServer, stopServer } from './process/child.js';
import type { StoreFactory, StoreHandle } from './stores.js';

export interface TestFolder {
  /** This test's own folder. */
  readonly dir: string;
  /** A file in it, not created: the SQLite database's path (or the name given). */
  readonly file: string;
  /** Runs `close` after the test, before the folder is removed (the last registered first). */
  closeAfter(close: () => unknown): void;
  /** A SQLite store on `file`, closed after the test. */
  openStore(): CdStore;
}

/**
 * For each test of the enclosing suite, a fresh folder under the system's temporary folder;
 * after the test, what was registered with `closeAfter` is closed and the folder removed.
 */
export function folderEachTest(fileName = 'cds.sqlite'): TestFolder {
  const closing: (() => unknown)[] = [];
  let folder: ReturnType<typeof tempDir> | undefined;
  const current = () => {
    if (!folder) throw new Error('the test folder exists only while a test runs');
    return folder;
  };
  beforeEach(() => {
    folder = tempDir();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) {
      // A store whose file a test took away may fail to close: the folder goes all the same.
      await Promise.resolve()
        .then(close)
        .catch(() => {});
    }
    current().remove();
    folder = undefined;
  });
  const fixture: TestFolder = {
    get dir() {
      return current().dir;
    },
    get file() {
      return join(current().dir, fileName);
    },
    closeAfter: (close) => {
      closing.push(close);
    },
    openStore: () => {
      const store = openSqliteStore(fixture.file);
      fixture.closeAfter(() => store.close());
      return store;
    },
  };
  return fixture;
}

/**
 * A folder for each test, and `start`: the real server process on the folder's SQLite file,
 * with `env` over `defaults`, killed after the test.
 */
export function serverEachTest(defaults: Record<string, string> = {}) {
  const folder = folderEachTest();
  return Object.assign(folder, {
    async start(env: Record<string, string> = {}): Promise<RunningServer> {
      const server = await startServer({ CD_DB_PATH: folder.file, ...defaults, ...env });
      folder.closeAfter(() => stopServer(server, 'SIGKILL'));
      return server;
    },
  });
}

export type App = ReturnType<ReturnType<typeof createApp>['callback']>;

/**
 * For each test of the enclosing suite, a fresh store of `factory` and the app over it (its
 * request handler, for supertest); after the test, the store is closed and its data removed.
 */
export function appEachTest(factory: StoreFactory) {
  let current: { handle: StoreHandle; app: App } | undefined;
  beforeEach(async () => {
    const handle = await factory.open();
    current = { handle, app: createApp({ store: handle.store }).callback() };
  });
  afterEach(async () => {
    await current?.handle.dispose();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('the app exists only while a test runs');
    return current;
  };
  return {
    get app() {
      return now().app;
    },
    get handle() {
      return now().handle;
    },
  };
}
