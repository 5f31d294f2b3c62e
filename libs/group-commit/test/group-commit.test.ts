import { expect } from 'chai';
import { GroupCommit, retryAlone, statementBatches, type ItemResult } from '../src/index.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('writes the first item at once and the items that waited together, each answered alone', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        await tick();
        return items.map((n): ItemResult<number> =>
          n % 5 === 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 },
        );
      },
      { maxBatch: 4, maxInFlight: 1 },
    );
    const settled = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => gc.submit(i + 1)));
    expect(batches).to.deep.equal([[1], [2, 3, 4, 5], [6, 7, 8, 9], [10]]);
    expect(
      settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
    ).to.deep.equal([10, 20, 30, 40, 'bad 5', 60, 70, 80, 90, 'bad 10']);
  });

  it('keeps at most maxInFlight batches writing', async () => {
    let writing = 0;
    let most = 0;
    const gc = new GroupCommit<number, number>(
      async (items) => {
        most = Math.max(most, ++writing);
        await tick();
        writing--;
        return items.map((value) => ({ ok: true as const, value }));
      },
      { maxBatch: 1, maxInFlight: 3 },
    );
    const out = await Promise.all(Array.from({ length: 12 }, (_, i) => gc.submit(i)));
    expect(out).to.deep.equal([...Array(12).keys()]);
    expect(most).to.equal(3);
  });

  it('rejects every item of a batch whose write fails, and goes on with the next batch', async () => {
    let calls = 0;
    const gc = new GroupCommit<string, string>(
      async (items) => {
        calls++;
        await tick();
        if (calls === 2) throw new Error('store down');
        return items.map((value) => ({ ok: true as const, value }));
      },
      { maxInFlight: 1 },
    );
    const results = await Promise.allSettled(['a', 'b', 'c'].map((s) => gc.submit(s)));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected']);
    expect(await gc.submit('d')).to.equal('d');
  });

  it('rejects every item when the writer answers the wrong number of results', async () => {
    const gc = new GroupCommit<number, number>(async () => [], { maxInFlight: 1 });
    const err = await gc.submit(1).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.match(/0 results for 1 items/);
  });

  it('rejects an item the writer left without a result, and answers the others', async () => {
    const gc = new GroupCommit<number, number>(
      async (items) => {
        await tick();
        const out = new Array<ItemResult<number>>(items.length);
        items.forEach((n, i) => {
          if (n !== 2) out[i] = { ok: true, value: n };
        });
        return out;
      },
      { maxInFlight: 1 },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((n) => gc.submit(n)));
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(((settled[1] as PromiseRejectedResult).reason as Error).message).to.match(/no result for item/);
  });

  it('retries alone only for errors of one row or a clash with another transaction', () => {
    for (const code of ['22P02', '23505', '23503', '40P01', '40001'])
      expect(retryAlone({ code })).to.equal(true);
    for (const err of [{ code: '08006' }, { code: '57014' }, { code: 'ECONNRESET' }, new Error('x'), null])
      expect(retryAlone(err)).to.equal(false);
  });
});

describe('statementBatches', () => {
  const squares = (fail?: { code: string }) => {
    const log: string[] = [];
    const write = statementBatches<number, { sq: number }, number | null>({
      statement: async (items) => {
        log.push(`statement ${items.join(',')}`);
        if (fail) throw Object.assign(new Error('statement failed'), fail);
        // no row for odd numbers, rows out of order
        return items.flatMap((n, ord) => (n % 2 ? [] : [{ ord, sq: n * n }])).reverse();
      },
      alone: async (n) => {
        log.push(`alone ${n}`);
        if (n === 3) throw new Error('three');
        return n * n;
      },
      fromRow: (r) => r.sq,
      noRow: () => null,
      onFallback: (_err, size) => log.push(`fallback ${size}`),
    });
    return { write, log };
  };

  it('matches rows to items by ord and answers noRow for the others; a batch of one runs alone', async () => {
    const { write, log } = squares();
    expect(await write([2, 3, 4])).to.deep.equal([
      { ok: true, value: 4 },
      { ok: true, value: null },
      { ok: true, value: 16 },
    ]);
    expect(await write([5])).to.deep.equal([{ ok: true, value: 25 }]);
    expect(log).to.deep.equal(['statement 2,3,4', 'alone 5']);
  });

  it('retries each item alone after a row or transaction error, and fails the batch after any other', async () => {
    const deadlock = squares({ code: '40P01' });
    const out = await deadlock.write([2, 3]);
    expect(out[0]).to.deep.equal({ ok: true, value: 4 });
    expect(out[1]!.ok).to.equal(false);
    expect(deadlock.log).to.deep.equal(['statement 2,3', 'fallback 2', 'alone 2', 'alone 3']);

    const lost = squares({ code: '08006' });
    let error: unknown;
    await lost.write([2, 3]).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('statement failed');
    expect(lost.log).to.deep.equal(['statement 2,3']);
  });

  it('without noRow, an item the statement returned no row for is rejected by the group commit', async () => {
    const gc = new GroupCommit(
      statementBatches<number, { v: number }, number>({
        statement: async (items) => [{ ord: 0, v: items[0]! }],
        alone: async (n) => n,
        fromRow: (r) => r.v,
      }),
      { maxInFlight: 1 },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((n) => gc.submit(n)));
    expect(settled.map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected']);
  });
});
