import { connect } from 'node:net';
import { expect } from 'chai';
import { rawExchange, servedFixture } from './raw-http.js';

describe('request bodies left unread', () => {
  const served = servedFixture();

  /** Sends a 50 MB body as fast as the server takes it: the answer, and how much was sent. */
  const sendLargeBody = (headers: string) => {
    const { port } = new URL(served.url);
    const declared = 50 * 1024 * 1024;
    return new Promise<{ answer: string; sent: number; declared: number }>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      socket.on('data', (data) => {
        answer += data;
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve({ answer, sent, declared }));
      socket.write(
        `POST /api/items HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${declared}\r\n\r\n`,
      );
      const pump = () => {
        while (sent < declared && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) return socket.once('drain', pump);
        }
      };
      pump();
    });
  };

  it('answers a body declared far over the limit with 413 and Connection: close, without reading the rest', async () => {
    const result = await sendLargeBody('Content-Type: application/json\r\n');
    expect(result.answer).to.match(/^HTTP\/1\.1 413/);
    expect(result.answer).to.match(/connection: close/i);
    expect(result.sent).to.be.below(result.declared / 2);
  });

  it('reads and drops the rest of a body a little over the limit, so the 413 is not lost to a reset and the connection carries the next request', async () => {
    const over = `{"name":"${'x'.repeat(200 * 1024)}"}`;
    const answer = await rawExchange(
      served.url,
      `POST /api/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${over.length}\r\n\r\n${over}` +
        'GET /api/items HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer).to.match(/^HTTP\/1\.1 413/);
    expect(answer).to.match(
      /\r\n\r\n\{"error":"The body is larger than 1kb","status":413\}HTTP\/1\.1 200 /,
    );
  });

  it('closes the connection after any error answered before a body declared large was read (415 here), without reading the rest', async () => {
    const result = await sendLargeBody('Content-Type: text/plain\r\n');
    expect(result.answer).to.match(/^HTTP\/1\.1 415/);
    expect(result.answer).to.match(/connection: close/i);
    expect(result.sent).to.be.below(result.declared / 2);
  });
});
