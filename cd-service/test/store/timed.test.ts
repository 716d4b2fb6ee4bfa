import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { CdStore } from '../../src/store/store.js';
import { timedStore } from '../../src/store/timed.js';
import { makeRecord } from '../helpers.js';

describe('the timed store', () => {
  it('times each operation by outcome, and passes results and errors through', async () => {
    const record = makeRecord();
    const store = {
      kind: 'sqlite',
      async get(id: string) {
        return id === record.id ? { cd: record, version: 1 } : undefined;
      },
      async ping(): Promise<never> {
        throw new Error('disk full');
      },
    } as unknown as CdStore;
    const timed = timedStore(store);
    const registry = new Registry();
    registry.registerMetric(timed.metric);
    expect(timed.store.kind).to.equal('sqlite');
    expect(await timed.store.get(record.id)).to.deep.equal({ cd: record, version: 1 });
    await timed.store.get('nope');
    let failed: unknown;
    await timed.store.ping().catch((error: unknown) => {
      failed = error;
    });
    expect((failed as Error).message).to.equal('disk full');
    const text = await registry.metrics();
    expect(text).to.include(
      'cd_store_operation_duration_seconds_count{operation="get",outcome="ok"} 2',
    );
    expect(text).to.include(
      'cd_store_operation_duration_seconds_count{operation="ping",outcome="error"} 1',
    );
  });
});
