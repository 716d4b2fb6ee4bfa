import { expect } from 'chai';
import { fixtureService } from './fixture.js';

describe('metrics', () => {
  it('counts requests by route template, method and status', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/api/big/2').expect(200);
    await request(server).get('/api/big/2').expect(200);
    await request(server).get('/api/big/3').expect(200);
    await request(server).get('/api/big/0').expect(404);
    await request(server).get('/no/such/path/123').expect(404);
    const res = await request(server).get('/metrics').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.text).to.include(
      'http_request_duration_seconds_count{service="fixture",method="GET",route="/api/big/:size",status="200"} 3',
    );
    expect(res.text).to.include(
      'http_request_duration_seconds_count{service="fixture",method="GET",route="/api/big/:size",status="404"} 1',
    );
    expect(res.text).to.include('route="unmatched",status="404"');
    expect(res.text).to.not.include('/no/such/path');
    expect(res.text).to.include('http_request_duration_seconds_bucket');
    expect(res.text).to.include('nodejs_eventloop_lag_seconds');
    expect(res.text).to.include('process_resident_memory_bytes');
  });

  it('answers a method other than GET and HEAD with 405 and Allow', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    const refused = await request(server).post('/metrics').expect(405);
    expect(refused.headers.allow).to.equal('HEAD, GET');
    expect(refused.body).to.deep.equal({
      error: 'Method POST is not allowed on /metrics',
      status: 405,
    });
    await request(server).head('/metrics').expect(200);
  });

  it('is off with metrics: false', async () => {
    const { app, request } = fixtureService({ metrics: false });
    await request(app.callback()).get('/metrics').expect(404);
    expect(app.metrics).to.equal(undefined);
  });
});
