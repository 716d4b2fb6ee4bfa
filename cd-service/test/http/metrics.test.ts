import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { makeCdInput, request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('GET /metrics', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it("times the store's operations by outcome, beside the kit's request counts", async () => {
    const app = createApp({ store: handle.store }).callback();
    const cd = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body as Cd;
    for (let i = 0; i < 3; i++) await request(app).get(`/cds/${cd.id}`).expect(200);
    const res = await request(app).get('/metrics').expect(200).expect('Content-Type', /text/);
    expect(res.text).to.include(
      'cd_store_operation_duration_seconds_count{service="cd-service",operation="get",outcome="ok"} 3',
    );
    expect(res.text).to.include('operation="insert",outcome="ok"');
    expect(res.text).to.include('service="cd-service",method="GET",route="/cds/:id",status="200"');
  });
});
