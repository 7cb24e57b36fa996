// Values put in a statement's text (sql-text.ts), for statements sent several at once: any text reads back as given,
// whichever way the server takes backslashes; ids are integers only. Statements sent together are one transaction,
// and a transaction whose BEGIN and COMMIT go with its statements is never left open: rolled back when its work
// throws or returns without committing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool, type PoolClient } from './db.js';
import { idArrayLiteral, inBatchedTransaction, runStatements, textArrayLiteral } from './sql-text.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 2);
});
afterAll(async () => {
  await pool.end();
});

describe("values in a statement's text", () => {
  it('an array of any text (quotes, backslashes, braces, commas, NULL as a word, accents, astral) reads back as given', async () => {
    const client: PoolClient = await pool.connect();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc
              .oneof(
                fc.string({ unit: 'grapheme' }),
                fc.constantFrom('NULL', 'null', '', ' ', '"', "'", '\\', "\\'", '{', '}', ',', 'a"b\\c', "O'BRIEN, JR"),
              )
              .map((s) => s.replace(/\0/g, '')),
            { maxLength: 8 },
          ),
          fc.boolean(),
          async (values, standardStrings) => {
            // Literals read the same whichever way the server takes backslashes in a plain '' literal.
            await client.query(`SET standard_conforming_strings = ${standardStrings ? 'on' : 'off'}`);
            const { rows } = await client.query<{ v: string[] }>(`SELECT ${textArrayLiteral(values)}::text[] AS v`);
            expect(rows[0]!.v).toEqual(values);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await client.query('RESET standard_conforming_strings');
      client.release();
    }
  });

  it('ids are integers of at most 15 digits only (exact as numbers)', async () => {
    const { rows } = await pool.query(`SELECT ${idArrayLiteral([1, -2, 999999999999999])}::bigint[]::text[] AS v`);
    expect(rows[0].v).toEqual(['1', '-2', '999999999999999']);
    for (const bad of [1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 2 ** 53])
      expect(() => idArrayLiteral([bad])).toThrow(/integer/);
  });
});

describe('statements sent together', () => {
  it('are one transaction: an error in one undoes those before it; their rows come back in order', async () => {
    const c = await pool.connect();
    try {
      await c.query('CREATE TEMP TABLE st (k int PRIMARY KEY)');
      const [, two] = await runStatements(c, ['INSERT INTO st VALUES (1)', 'SELECT 2 AS two']);
      expect(two!.rows).toEqual([{ two: 2 }]);
      await expect(runStatements(c, ['INSERT INTO st VALUES (2)', 'INSERT INTO st VALUES (1)'])).rejects.toMatchObject({
        code: '23505',
      });
      expect((await c.query('SELECT k FROM st ORDER BY k')).rows).toEqual([{ k: 1 }]);
    } finally {
      c.release();
    }
  });

  it('a batched transaction commits with its last statements, and is rolled back when its work throws or forgets to commit', async () => {
    const c = await pool.connect();
    const inTransaction = async () => (await c.query('SELECT now() <> statement_timestamp() AS open')).rows[0].open;
    try {
      await c.query('CREATE TEMP TABLE bt (k int PRIMARY KEY)');
      const got = await inBatchedTransaction(c, async (tx) => {
        const [, , rows] = await tx.begin(['INSERT INTO bt VALUES (1)', 'SELECT count(*)::int AS n FROM bt']);
        await tx.commit(['INSERT INTO bt VALUES (2)']);
        return rows!.rows[0].n;
      });
      expect(got).toBe(1);
      await expect(
        inBatchedTransaction(c, async (tx) => {
          await tx.begin(['INSERT INTO bt VALUES (3)']);
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      await expect(
        inBatchedTransaction(c, async (tx) => {
          await tx.begin(['INSERT INTO bt VALUES (4)']);
        }),
      ).rejects.toThrow(/without its commit/);
      // A failed commit (a key given twice) rolls back the whole.
      await expect(
        inBatchedTransaction(c, async (tx) => {
          await tx.begin(['INSERT INTO bt VALUES (5)']);
          await tx.commit(['INSERT INTO bt VALUES (1)']);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await inTransaction()).toBe(false);
      expect((await c.query('SELECT k FROM bt ORDER BY k')).rows).toEqual([{ k: 1 }, { k: 2 }]);
    } finally {
      c.release();
    }
  });
});
