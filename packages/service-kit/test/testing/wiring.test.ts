import { expect } from 'chai';
import Koa from 'koa';
import { expectKitWired, type KitWiring } from '../../src/testing/wiring.js';
import { fixtureService } from '../fixture.js';

describe('expectKitWired', () => {
  const wiring: KitWiring = {
    service: 'fixture',
    app: (options) => fixtureService({ corsOrigins: ['*'], ...options }).app,
    path: '/api/big/2',
    route: '/api/big/:size',
    cors: { origin: '*', methods: 'GET,POST,DELETE,HEAD' },
  };

  it('passes on a service built on the kit that passes its options on', async () => {
    await expectKitWired(wiring);
  });

  it('fails on an app without the kit, one that keeps /metrics on, and other CORS', async () => {
    const plain = new Koa().use((ctx) => {
      ctx.body = { filler: 'x'.repeat(2048) };
    });
    const failures: [KitWiring, RegExp][] = [
      [{ ...wiring, app: () => plain }, /X-Request-Id is not echoed/],
      [{ ...wiring, app: () => fixtureService().app }, /no request log line/],
      [{ ...wiring, route: '/api/big/2' }, /\/metrics lacks/],
      [{ ...wiring, app: ({ metrics, ...kept }) => wiring.app(kept) }, /404/],
      [{ ...wiring, cors: undefined }, /CORS answers otherwise/],
    ];
    for (const [failing, message] of failures) {
      let failure: Error | undefined;
      await expectKitWired(failing).catch((error: Error) => {
        failure = error;
      });
      expect(failure?.message, String(message)).to.match(message);
    }
  });
});
