import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { readTurns } from '../../src/store/read-turns.js';

describe('readTurns', () => {
  let server: Server;
  let sender: Socket;
  let receiver: Socket;

  before(async () => {
    server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address() as { port: number };
    const accepted = once(server, 'connection');
    sender = connect(address.port, '127.0.0.1');
    [receiver] = (await accepted) as [Socket];
    await once(sender, 'connect');
  });
  after(() => {
    sender.destroy();
    receiver.destroy();
    server.close();
  });

  it('lets the callers through in the order they asked, with the I/O of the loop between two', async () => {
    const turn = readTurns();
    const events: string[] = [];
    receiver.on('data', (chunk) => events.push(`read ${chunk}`));
    // Each caller, once through, sends bytes that the loop reads in its next poll for I/O (where
    // a probe's request is read): that must come before the next caller is let through.
    const reads = ['a', 'b', 'c'].map(async (name) => {
      await turn();
      events.push(name);
      sender.write(name);
    });
    await Promise.all(reads);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).to.deep.equal(['a', 'read a', 'b', 'read b', 'c', 'read c']);
  });

  it('lets callers through again after the queue ran dry', async () => {
    const turn = readTurns();
    await turn();
    await turn();
    const events: string[] = [];
    await Promise.all([turn().then(() => events.push('x')), turn().then(() => events.push('y'))]);
    expect(events).to.deep.equal(['x', 'y']);
  });
});
