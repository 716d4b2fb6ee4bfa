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

  /** A synchronous read that holds the loop for `ms`. */
  const hold = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  /** A read as the store runs it: it waits when enter says so, holds the loop, then leaves. */
  const read = async (turns: ReturnType<typeof readTurns>, ms: number, then: () => void) => {
    const wait = turns.enter();
    if (wait) await wait;
    const startedAt = performance.now();
    hold(ms);
    then();
    turns.leave(startedAt);
  };

  it('runs reads at once while the turn is within its budget', async () => {
    const turns = readTurns(1000);
    const events: string[] = [];
    receiver.on('data', (chunk) => events.push(`read ${chunk}`));
    const reads = ['a', 'b', 'c'].map((name) =>
      read(turns, 1, () => {
        events.push(name);
        sender.write(name);
      }),
    );
    await Promise.all(reads);
    await new Promise((resolve) => setTimeout(resolve, 50));
    receiver.removeAllListeners('data');
    expect(events).to.deep.equal(['a', 'b', 'c', 'read abc']);
  });

  it('makes the reads past the budget wait for the next turns, in order, with I/O between', async () => {
    const turns = readTurns(5);
    const events: string[] = [];
    receiver.on('data', (chunk) => events.push(`read ${chunk}`));
    // Each read takes the whole budget: one per turn, and the bytes each one sends are read (in
    // the loop's poll for I/O, where a probe's request is read) before the next one runs.
    const reads = ['a', 'b', 'c'].map((name) =>
      read(turns, 6, () => {
        events.push(name);
        sender.write(name);
      }),
    );
    await Promise.all(reads);
    await new Promise((resolve) => setTimeout(resolve, 50));
    receiver.removeAllListeners('data');
    expect(events).to.deep.equal(['a', 'read a', 'b', 'read b', 'c', 'read c']);
  });
});
