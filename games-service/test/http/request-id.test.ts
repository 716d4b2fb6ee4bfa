import { expect } from 'chai';
import { captureLogger } from 'service-kit/testing';
import { request, seededApp } from '../helpers.js';

describe('X-Request-Id', () => {
  it('echoes the id, and writes it with the service name in the request log line', async () => {
    const logger = captureLogger('games-service');
    const app = seededApp({ logger, logRequests: true }).callback();
    const res = await request(app).get('/api/games/1').set('X-Request-Id', 'trace-me');
    expect(res.headers['x-request-id']).to.equal('trace-me');
    const line = logger.lines.find((l) => l.message === 'request');
    expect(line).to.include({
      service: 'games-service',
      path: '/api/games/1',
      requestId: 'trace-me',
    });
  });
});
