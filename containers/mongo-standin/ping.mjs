// The stand-in's health check (it has no mongosh): sends `{ping: 1}` to the admin database in one
// OP_MSG, as a driver does, and exits 0 when the answer says ok: 1.
import { connect } from 'node:net';
import { deserialize, serialize } from 'bson';

const OP_MSG = 2013;
const body = serialize({ ping: 1, $db: 'admin' });
const header = Buffer.alloc(21);
header.writeInt32LE(21 + body.length, 0); // message length
header.writeInt32LE(1, 4); // request id
header.writeInt32LE(0, 8); // response to
header.writeInt32LE(OP_MSG, 12);
header.writeUInt32LE(0, 16); // flag bits
header.writeUInt8(0, 20); // section kind 0: the command document

const fail = (why) => {
  console.error(`ping failed: ${why}`);
  process.exit(1);
};
const socket = connect(Number(process.env.PORT || 27017), '127.0.0.1', () => {
  socket.write(Buffer.concat([header, body]));
});
let received = Buffer.alloc(0);
socket.on('data', (chunk) => {
  received = Buffer.concat([received, chunk]);
  if (received.length < 4 || received.length < received.readInt32LE(0)) return;
  const reply = deserialize(received.subarray(21, received.readInt32LE(0)));
  socket.destroy();
  if (reply.ok === 1) process.exit(0);
  fail(JSON.stringify(reply));
});
socket.on('error', (error) => fail(error.message));
socket.setTimeout(3000, () => fail('no answer within 3 s'));
