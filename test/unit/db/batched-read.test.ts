import { batchedRead } from '../../../src/db/batched-read';

// batchedRead's scheduling and failure handling, with a batch function that records its calls
// (the statements themselves are exercised on PostgreSQL by test/integration/video-reads.test.ts).

function recorder(answer: (key: number) => number | Error = (key) => key * 10) {
  const batches: number[][] = [];
  const run = async (keys: readonly number[]) => {
    batches.push([...keys]);
    const failure = keys.map(answer).find((value): value is Error => value instanceof Error);
    if (failure) throw failure;
    return keys.map((key) => answer(key) as number);
  };
  return { batches, run };
}

it('sends the reads of one turn of the event loop as one batch, in the order they came', async () => {
  const { batches, run } = recorder();
  const read = batchedRead(run);
  await expect(Promise.all([read(1), read(2), read(3)])).resolves.toEqual([10, 20, 30]);
  expect(batches).toEqual([[1, 2, 3]]);
});

it('gathers reads made from separate callbacks of the same poll, and none from a later turn', async () => {
  const { batches, run } = recorder();
  const read = batchedRead(run);
  // Two I/O-like callbacks in the same turn (each drains its microtasks before the next), then a later turn.
  const first = new Promise<number[]>((resolve) => setImmediate(() => void Promise.all([read(1), Promise.resolve().then(() => read(2))]).then(resolve)));
  const second = new Promise<number>((resolve) => setImmediate(() => void read(3).then(resolve)));
  await expect(Promise.all([first, second])).resolves.toEqual([[10, 20], 30]);
  const later = await read(4);
  expect(later).toBe(40);
  expect(batches).toEqual([[1, 2, 3], [4]]);
});

it('never puts more than maxBatchSize keys in one batch', async () => {
  const { batches, run } = recorder();
  const read = batchedRead(run, 2);
  await Promise.all([1, 2, 3, 4, 5].map(read));
  expect(batches).toEqual([[1, 2], [3, 4], [5]]);
});

it('reads each key alone when a shared batch fails, so only the bad key fails', async () => {
  const bad = Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' });
  const { batches, run } = recorder((key) => (key === 2 ? bad : key * 10));
  const read = batchedRead(run);
  const settled = await Promise.allSettled([read(1), read(2), read(3)]);
  expect(settled).toEqual([
    { status: 'fulfilled', value: 10 },
    { status: 'rejected', reason: bad },
    { status: 'fulfilled', value: 30 },
  ]);
  expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
});

it('fails every read at once, without retrying each, when the database is gone', async () => {
  const gone = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const { batches, run } = recorder(() => gone);
  const read = batchedRead(run);
  const settled = await Promise.allSettled([read(1), read(2)]);
  expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  expect(settled.map((s) => (s as PromiseRejectedResult).reason)).toEqual([gone, gone]);
  expect(batches).toEqual([[1, 2]]);
});

it('keeps no memory: the same key read again is read again', async () => {
  let value = 1;
  const batches: number[][] = [];
  const read = batchedRead(async (keys: readonly number[]) => {
    batches.push([...keys]);
    return keys.map(() => value);
  });
  expect(await read(7)).toBe(1);
  value = 2;
  expect(await read(7)).toBe(2);
  expect(batches).toEqual([[7], [7]]);
});
