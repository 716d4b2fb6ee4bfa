import { expect } from 'chai';
import { request, seededApp } from '../helpers.js';

describe('GET /metrics', () => {
  it('counts requests by route template, named after the service', async () => {
    const app = seededApp().callback();
    await request(app).get('/api/games/1').expect(200);
    await request(app).get('/api/games/2').expect(200);
    const res = await request(app).get('/metrics').expect(200);
    expect(res.text).to.include(
      'http_request_duration_seconds_count{service="games-service",method="GET",route="/api/games/:id",status="200"} 2',
    );
    await request(seededApp({ metrics: false }).callback())
      .get('/metrics')
      .expect(404);
  });
});
