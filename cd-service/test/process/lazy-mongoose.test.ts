import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { NODE_FLAGS, serviceRoot } from './child.js';

/**
 * Starts the server on SQLite inside a process of its own, then says whether Mongoose was
 * loaded (CommonJS, so it shows in require.cache), before and after importing the MongoDB store.
 * The answer goes over the IPC channel, not stdout, where the server's own log lines are written
 * in an order of their own.
 */
const PROBE = `
import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const mongoose = () => Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]mongoose[\\\\/]/.test(file));
await import('./src/server.ts');
const onSqlite = mongoose();
await import('./src/store/mongo.ts');
process.send({ onSqlite, afterMongoStore: mongoose() }, () => process.exit(0));
`;

describe('Mongoose on the SQLite path', function () {
  this.timeout(60_000);

  it('is not loaded by a server that runs on SQLite', async () => {
    const child = spawn(process.execPath, [...NODE_FLAGS, '--input-type=module', '-e', PROBE], {
      cwd: serviceRoot,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        CD_DB_PATH: ':memory:',
        CD_SEED: 'false',
        MONGODB_URI: '',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const answers: unknown[] = [];
    child.on('message', (answer) => answers.push(answer));
    // The server's log and any error, to say why when the probe gave no answer.
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk) => {
        output += chunk;
      });
    }
    // 'close' comes after the IPC channel closed: every answer sent has been received by then.
    const [code] = await once(child, 'close');
    expect({ code, answers }, output).to.deep.equal({
      code: 0,
      answers: [{ onSqlite: false, afterMongoStore: true }],
    });
  });
});
