import { connect } from 'node:net';
import { listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

/** Sends raw bytes and reads the whole answer until the server closes or `ms` pass. */
export function rawExchange(url: string, request: string, ms = 2000): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), ms).unref();
  });
}

/**
 * A fixture service listening on 127.0.0.1 for the tests of the enclosing `describe`, for what
 * supertest cannot send (raw bytes, no Host, bodies it would re-encode).
 */
export function servedFixture(): { url: string } {
  const served = { url: '' };
  let close = () => {};
  before(async () => {
    const listening = await listen(fixtureService().app);
    served.url = listening.url;
    close = () => listening.server.close();
  });
  after(() => close());
  return served;
}
