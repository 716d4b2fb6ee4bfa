import { expect } from 'chai';
import { captureLogger } from 'service-kit/testing';
import { request, seededApp } from '../helpers.js';

describe('X-Request-Id', () => {
  it('echoes the id, and writes it with the service name in the request log line', async () => {
    const logger = captureLogger('travel-service');
    const app = seededApp({ logger, logRequests: true }).callback();
    const res = await request(app).get('/api/itineraries/kyoto').set('X-Request-Id', 'trace-me');
    expect(res.headers['x-request-id']).to.equal('trace-me');
    const line = logger.lines.find((l) => l.message === 'request');
    expect(line).to.include({
      service: 'travel-service',
      path: '/api/itineraries/kyoto',
      requestId: 'trace-me',
    });
  });
});
