import { expect } from 'chai';
import { markDraining } from '../src/health.js';
import { captureLogger } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

describe('request id', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('echoes a sane X-Request-Id and replaces anything else', async () => {
    const kept = await request(server).get('/api/items').set('X-Request-Id', 'abc-123.4:5');
    expect(kept.headers['x-request-id']).to.equal('abc-123.4:5');
    for (const bad of ['bad id<>', 'x'.repeat(129)]) {
      const replaced = await request(server).get('/api/items').set('X-Request-Id', bad);
      expect(replaced.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    }
    const made = await request(server).get('/nope');
    const other = await request(server).get('/nope');
    expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(other.headers['x-request-id']).to.not.equal(made.headers['x-request-id']);
  });
});

describe('request log', () => {
  it('writes one line per request, with its id, when logRequests is on', async () => {
    const logger = captureLogger('fixture');
    const { app, request } = fixtureService({ logger, logRequests: true });
    await request(app.callback()).get('/api/items').set('X-Request-Id', 'trace-me').expect(200);
    const lines = logger.lines.filter((line) => line.message === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({
      service: 'fixture',
      level: 'info',
      method: 'GET',
      path: '/api/items',
      status: 200,
      requestId: 'trace-me',
    });
    expect(lines[0]?.ms).to.be.a('number');
  });

  it('logs an answer that is an error once, with its status', async () => {
    const logger = captureLogger('fixture');
    const { app, request } = fixtureService({ logger, logRequests: true });
    await request(app.callback()).get('/api/nothing-here').expect(404);
    expect(logger.lines).to.have.length(1);
    expect(logger.lines[0]).to.include({
      level: 'info',
      message: 'request',
      path: '/api/nothing-here',
      status: 404,
    });
  });

  it('logs the probes that succeed at debug level (not printed by default), and those that fail', async () => {
    const logger = captureLogger('fixture');
    logger.level = 'debug';
    const { app, request } = fixtureService({ logger, logRequests: true });
    await request(app.callback()).get('/livez').expect(200);
    await request(app.callback()).get('/readyz').expect(200);
    await request(app.callback()).get('/healthz').expect(200);
    markDraining(app);
    await request(app.callback()).get('/readyz').expect(503);
    const levels = logger.lines
      .filter((line) => line.message === 'request')
      .map((line) => `${line.path} ${line.status} ${line.level}`);
    expect(levels).to.deep.equal([
      '/livez 200 debug',
      '/readyz 200 debug',
      '/healthz 200 debug',
      '/readyz 503 info',
    ]);
  });

  it('writes none when logRequests is off', async () => {
    const logger = captureLogger('fixture');
    const { app, request } = fixtureService({ logger });
    await request(app.callback()).get('/api/items').expect(200);
    expect(logger.lines).to.deep.equal([]);
  });
});
