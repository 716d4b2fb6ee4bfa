import { expect } from 'chai';
import { Registry } from 'prom-client';
import { timedStore } from '../../src/store/timed.js';
import { makeRecord } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('the timed store', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('times each operation by outcome, and passes results and errors through', async () => {
    const timed = timedStore(handle.store);
    const registry = new Registry();
    registry.registerMetric(timed.metric);
    expect(timed.store.kind).to.equal('sqlite');
    const record = makeRecord();
    await timed.store.insert(record);
    expect((await timed.store.get(record.id))?.cd.id).to.equal(record.id);
    expect(await timed.store.get(makeRecord().id)).to.equal(undefined);
    await handle.store.close();
    let failed: unknown;
    await timed.store.ping().catch((error: unknown) => {
      failed = error;
    });
    expect(failed).to.be.instanceOf(Error);
    const text = await registry.metrics();
    expect(text).to.include(
      'cd_store_operation_duration_seconds_count{operation="get",outcome="ok"} 2',
    );
    expect(text).to.include(
      'cd_store_operation_duration_seconds_count{operation="insert",outcome="ok"} 1',
    );
    expect(text).to.include(
      'cd_store_operation_duration_seconds_count{operation="ping",outcome="error"} 1',
    );
  });
});
