import { expectKitWired } from 'service-kit/testing';
import { seededApp } from '../helpers.js';

describe('the kit', () => {
  it('is wired: request id, request log, metrics, compression, CORS for any origin to read', () =>
    expectKitWired({
      service: 'games-service',
      app: seededApp,
      path: '/api/games',
      route: '/api/games',
      cors: { origin: '*', methods: 'GET,HEAD' },
    }));
});
