/** What the conformance suite does not reach: schema names, foreign rows, scans, retention by age. */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@datadriver/core';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSchema, PostgresStore, schemaSql } from '../src/index.js';
import { freshSchema, Pools, quiet } from './support/postgres.js';

const pools = new Pools();
afterAll(() => pools.endAll());

describe('schema names', () => {
  it('takes any name PostgreSQL keeps whole, quoted: no name breaks out of its identifier', async () => {
    const pool = pools.open();
    const schema = `dd "odd"; DROP SCHEMA public; -- $dd$ ${process.pid}`;
    await ensureSchema(pool, { schema });
    await ensureSchema(pool, { schema }); // idempotent
    const store = new PostgresStore({ pool, schema, logger: quiet });
    await store.update('k', () => ({ n: 1 }));
    expect(await store.get('k')).toEqual({ n: 1 });
    const { rows } = await pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name = $1',
      [schema],
    );
    expect(rows[0]?.n).toBe('1');
    expect(schemaSql(schema)).toContain('"dd ""odd""; DROP SCHEMA public; -- $dd$');
    await pool.query(`DROP SCHEMA "${schema.replaceAll('"', '""')}" CASCADE`);
  });

  it.each([
    ['empty', ''],
    ['NUL', 'a\0b'],
    ['over 63 bytes, which PostgreSQL would cut', 'é'.repeat(32)],
    ['a lone surrogate', 'a\uD800'],
  ])('refuses a name that is %s with Data.InvalidConfig', (_, schema) => {
    expect(() => new PostgresStore({ pool: pools.open(), schema })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('servers calling ensureSchema at once all succeed', async () => {
    const pool = pools.open(undefined, { max: 8 });
    const schema = `ddtest_race_${process.pid}`;
    await Promise.all(Array.from({ length: 6 }, () => ensureSchema(pool, { schema })));
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  });
});

describe('rows and keys', () => {
  it('refuses a row that is not a record with Data.InvalidRecord and leaves it byte for byte', async () => {
    const pool = pools.open();
    const schema = await freshSchema(pool, 'foreign');
    const store = new PostgresStore({ pool, schema, logger: quiet });
    const key = Buffer.from('k', 'utf8');
    for (const json of ['not json', '[1,2]']) {
      await pool.query(
        `INSERT INTO "${schema}".records (key, version, record) VALUES ($1, 'v', $2)
           ON CONFLICT (key) DO UPDATE SET record = excluded.record`,
        [key, json],
      );
      await expect(store.get('k')).rejects.toMatchObject({ code: ErrorCode.InvalidRecord });
      await expect(store.update('k', () => ({ n: 1 }))).rejects.toMatchObject({
        code: ErrorCode.InvalidRecord,
      });
      const { rows } = await pool.query(`SELECT record FROM "${schema}".records WHERE key = $1`, [
        key,
      ]);
      expect(rows[0]?.record).toBe(json);
    }
  });

  it('keeps keys holding NUL, and scans by prefix across pages without the next prefix', async () => {
    const pool = pools.open();
    const schema = await freshSchema(pool, 'scan');
    const store = new PostgresStore({ pool, schema, logger: quiet });
    const under = Array.from({ length: 501 }, (_, index) => `a\0${index}`);
    // 'a\x01' is the first key after every 'a\0...' one: the range must stop before it.
    const others = ['a\x01', 'a', 'b\0', '\0'];
    await pool.query(
      `INSERT INTO "${schema}".records (key, version, record)
         SELECT convert_to(k, 'UTF8'), 'v', '{}' FROM unnest($1::text[]) AS k`,
      [under.map((key) => key.replace('\0', '\u0001'))],
    );
    // Text cannot carry NUL: the rows above are renamed to their real keys through bytea.
    await pool.query(
      `UPDATE "${schema}".records SET key = overlay(key placing '\\x00'::bytea from 2 for 1)`,
    );
    for (const key of others) await store.update(key, () => ({ other: key }));
    expect(await store.get('a\u00000')).toEqual({});
    const scanned: string[] = [];
    for await (const key of store.scan('a\0')) scanned.push(key);
    expect(scanned.sort()).toEqual([...under].sort());
    const all: string[] = [];
    for await (const key of store.scan('')) all.push(key);
    expect(all).toHaveLength(under.length + others.length);
  });
});

describe('versions', () => {
  it('drops a version past maxAgeSeconds, by the database clock, on reads and on the next write', async () => {
    const pool = pools.open();
    const schema = await freshSchema(pool, 'age');
    const store = new PostgresStore({
      pool,
      schema,
      logger: quiet,
      versions: { maxAgeSeconds: 0.3 },
    });
    await store.update('k', () => ({ n: 1 }), { keepVersion: true });
    const [first] = (await store.versions?.list('k')) ?? [];
    expect(first).toBeDefined();
    await sleep(400);
    expect(await store.versions?.list('k')).toEqual([]);
    expect(await store.versions?.read('k', first?.id ?? '')).toBeUndefined();
    await store.update('k', () => ({ n: 2 }), { keepVersion: true });
    const { rows } = await pool.query(`SELECT id FROM "${schema}".record_versions`);
    expect(rows).toHaveLength(1);
  });

  it('keeps no version without keepVersion, nor when the store keeps none', async () => {
    const pool = pools.open();
    const schema = await freshSchema(pool, 'nokeep');
    const versioned = new PostgresStore({ pool, schema, logger: quiet, versions: { keep: 5 } });
    await versioned.update('k', () => ({ n: 1 }));
    const plain = new PostgresStore({ pool, schema, logger: quiet });
    expect(plain.versions).toBeUndefined();
    await plain.update('k', () => ({ n: 2 }), { keepVersion: true });
    const { rows } = await pool.query(`SELECT id FROM "${schema}".record_versions`);
    expect(rows).toEqual([]);
  });
});

describe('README', () => {
  it('prints the SQL that ensureSchema runs for the default schema', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`sql\n${schemaSql('datadriver')}\`\`\``);
  });
});
