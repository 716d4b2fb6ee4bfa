// Two corrections to the emulator of @push.rocks/smartmongo 2.2.0 (its `congodb` folder), made
// once at build (the same as the project's test setup makes them):
//   1. mongod accepts any _id type; the emulator turned every _id into an ObjectId. Documents are
//      keyed by the _id's own value instead.
//   2. The emulator announced a topologyVersion without being able to stream awaitable hellos
//      (moreToCome): the driver then cleared its connection pool at random under load. Without a
//      topologyVersion the driver polls, as it does with servers older than MongoDB 4.4.
import { readFileSync, writeFileSync } from 'node:fs';

const KEY =
  "const __key = (id) => (id && typeof id.toHexString === 'function') ? id.toHexString() : 'v:' + JSON.stringify(id);\n";
const HEX_ID = /([A-Za-z]+)\._id\.toHexString\(\)/g;

function rewrite(path, change) {
  const before = readFileSync(path, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`${path}: nothing to change; is this smartmongo 2.2.0?`);
  writeFileSync(path, after);
}

rewrite('congodb/storage/MemoryStorageAdapter.js', (s) =>
  KEY +
  s
    .replace(
      '_id: doc._id instanceof plugins.bson.ObjectId ? doc._id : new plugins.bson.ObjectId(doc._id),',
      '_id: doc._id,',
    )
    .replace(HEX_ID, '__key($1._id)')
    .replaceAll('id.toHexString()', '__key(id)'),
);
for (const path of ['congodb/engine/IndexEngine.js', 'congodb/engine/TransactionEngine.js']) {
  rewrite(path, (s) => KEY + s.replace(HEX_ID, '__key($1._id)'));
}
rewrite('congodb/server/handlers/HelloHandler.js', (s) => s.replace(/topologyVersion: \{[^}]*\},/g, ''));
