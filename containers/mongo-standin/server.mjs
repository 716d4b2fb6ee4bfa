// The stand-in's server: the emulator on HOST:PORT (0.0.0.0:27017 in the image), data in memory.
import { CongoServer } from './congodb/index.js';

const port = Number(process.argv[2] || process.env.PORT || 27017);
const host = process.env.HOST || '127.0.0.1';
const server = new CongoServer({ port, host });
await server.start();
console.log(`mongo-wire emulator (a stand-in for MongoDB, data in memory) listening on ${host}:${port}`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    await server.stop();
    process.exit(0);
  });
}
