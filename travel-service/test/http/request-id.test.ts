import { expect } from 'chai';
import { captureLogger } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { seededItineraries as itineraries, request, seededApp } from '../helpers.js';

describe('X-Request-Id', () => {
  const app = seededApp().callback();

  it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
    const given = await request(app).get('/api/itineraries/kyoto').set('X-Request-Id', 'abc-123.x');
    expect(given.headers['x-request-id']).to.equal('abc-123.x');
    const invalid = await request(app)
      .get('/api/itineraries/kyoto')
      .set('X-Request-Id', 'no spaces <allowed>');
    expect(invalid.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const absent = await request(app).get('/nope');
    expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const error = await request(app).get('/api/itineraries/%E0%A4%A');
    expect(error.status).to.equal(400);
    expect(error.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('writes the id and the service name in the request log line', async () => {
    const logger = captureLogger('travel-service');
    const logged = createApp({ itineraries, logger, logRequests: true }).callback();
    await request(logged).get('/api/itineraries/kyoto').set('X-Request-Id', 'trace-me');
    const line = logger.lines.find((l) => l.message === 'request');
    expect(line).to.include({
      service: 'travel-service',
      level: 'info',
      method: 'GET',
      path: '/api/itineraries/kyoto',
      status: 200,
      requestId: 'trace-me',
    });
    expect(line?.ms).to.be.a('number');
  });

  it('writes the id in the log line of an unexpected failure', async () => {
    const logger = captureLogger('travel-service');
    const broken = createApp({
      itineraries: Object.assign(Object.create(itineraries), {
        find: () => {
          throw new Error('boom');
        },
      }),
      logger,
    }).callback();
    const res = await request(broken)
      .get('/api/itineraries/kyoto')
      .set('X-Request-Id', 'failing-1');
    expect(res.status).to.equal(500);
    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({
      service: 'travel-service',
      message: 'unhandled error',
      requestId: 'failing-1',
    });
  });
});
