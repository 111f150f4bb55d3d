// The service's own keys (StoreBackend.serviceKey; one suite, two backends): made once, by
// whichever process asks first, and the same for every process that opens the store, so that a
// list cursor one API process handed out is read by another (store/cursor.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, postgresMissing } from '../store-backends.ts';

const pgSkip = await postgresMissing();

for (const backend of BACKENDS) {
  describe(`service keys (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    it('are made once and shared by every opening of the store', async () => {
      let keyOfFirst: Buffer = Buffer.alloc(0);
      const first = await backend.open();
      try {
        const [a, b] = await Promise.all([first.stores.backend.serviceKey('cursor'), first.stores.backend.serviceKey('cursor')]);
        keyOfFirst = a;
        assert.equal(a.length, 32);
        assert.deepEqual(b, a);
        const second = await backend.open(first);
        try {
          assert.deepEqual(await second.stores.backend.serviceKey('cursor'), a, 'another process of the service');
          assert.notDeepEqual(await second.stores.backend.serviceKey('other'), a, 'a key of another name');
        } finally {
          await second.close();
        }
      } finally {
        await first.close();
      }
      const other = await backend.open();
      try {
        assert.notDeepEqual(await other.stores.backend.serviceKey('cursor'), keyOfFirst, 'another store has another key');
      } finally {
        await other.close();
      }
    });
  });
}
