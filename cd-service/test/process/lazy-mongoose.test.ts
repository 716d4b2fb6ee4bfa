import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { NODE_FLAGS, serviceRoot } from './child.js';

/**
 * Starts the server on SQLite inside a process of its own, then says whether Mongoose was
 * loaded (CommonJS, so it shows in require.cache), before and after importing the MongoDB store.
 */
const PROBE = `
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const mongoose = () => Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]mongoose[\\\\/]/.test(file));
await import('./src/server.ts');
const onSqlite = mongoose();
await import('./src/store/mongo.ts');
console.log(JSON.stringify({ onSqlite, afterMongoStore: mongoose() }));
process.exit(0);
`;

describe('Mongoose on the SQLite path', function () {
  this.timeout(60_000);

  it('is not loaded by a server that runs on SQLite', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...NODE_FLAGS, '--input-type=module', '-e', PROBE],
      {
        cwd: serviceRoot,
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          CD_DB_PATH: ':memory:',
          CD_SEED: 'false',
          MONGODB_URI: '',
        },
      },
    );
    const result = stdout.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(result)).to.deep.equal({ onSqlite: false, afterMongoStore: true });
  });
});
