import { expect } from 'chai';
import { captureLogger } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

describe('X-Request-Id', () => {
  const app = seededApp().callback();

  it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
    const given = await request(app).get('/api/games/1').set('X-Request-Id', 'abc-123.x');
    expect(given.headers['x-request-id']).to.equal('abc-123.x');
    const invalid = await request(app)
      .get('/api/games/1')
      .set('X-Request-Id', 'no spaces <allowed>');
    expect(invalid.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const absent = await request(app).get('/nope');
    expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('writes the id and the service name in the request log line', async () => {
    const logger = captureLogger('games-service');
    const logged = createApp({ catalogue, logger, logRequests: true }).callback();
    await request(logged).get('/api/games/1').set('X-Request-Id', 'trace-me');
    const line = logger.lines.find((l) => l.message === 'request');
    expect(line).to.include({
      service: 'games-service',
      level: 'info',
      method: 'GET',
      path: '/api/games/1',
      status: 200,
      requestId: 'trace-me',
    });
    expect(line?.ms).to.be.a('number');
  });
});
