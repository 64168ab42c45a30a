/** The data type comes from the schema (zod, valibot, arktype); the generic form without one still compiles. */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { DataDriver, type Profile } from '../src/index.js';
import { MemoryStore } from '../src/testing.js';

interface Expected {
  coins: number;
  name?: string | undefined;
  items: Array<{ id: string }>;
}

const store = new MemoryStore();

describe('the data type of a driver', () => {
  it('is inferred from a zod schema', () => {
    const driver = new DataDriver({
      name: 'Zod',
      store,
      schema: z.object({
        coins: z.number(),
        name: z.string().optional(),
        items: z.array(z.object({ id: z.string() })),
      }),
      defaults: { coins: 0, items: [] },
    });
    expectTypeOf(driver).toEqualTypeOf<DataDriver<Expected>>();
    expectTypeOf(driver.load).returns.resolves.toEqualTypeOf<Profile<Expected>>();
  });

  it('is inferred from a valibot schema', () => {
    const driver = new DataDriver({
      name: 'Valibot',
      store,
      schema: v.object({
        coins: v.number(),
        name: v.optional(v.string()),
        items: v.array(v.object({ id: v.string() })),
      }),
      defaults: { coins: 0, items: [] },
    });
    expectTypeOf(driver).toEqualTypeOf<
      DataDriver<{
        coins: number;
        name?: string | undefined;
        items: { id: string }[];
      }>
    >();
  });

  it('is inferred from an arktype schema', () => {
    const driver = new DataDriver({
      name: 'ArkType',
      store,
      schema: type({
        coins: 'number',
        'name?': 'string',
        items: type({ id: 'string' }).array(),
      }),
      defaults: { coins: 0, items: [] },
    });
    expectTypeOf(driver).toEqualTypeOf<
      DataDriver<{
        coins: number;
        name?: string;
        items: { id: string }[];
      }>
    >();
    expectTypeOf(driver.load).returns.resolves.toEqualTypeOf<
      Profile<{ coins: number; name?: string; items: { id: string }[] }>
    >();
  });

  it('refuses defaults that do not match the schema, at compile time', () => {
    const make = () =>
      new DataDriver({
        name: 'Wrong',
        store,
        schema: z.object({ coins: z.number() }),
        // @ts-expect-error: coins is a number in the schema
        defaults: { coins: 'none' },
      });
    expectTypeOf(make).returns.toEqualTypeOf<DataDriver<{ coins: number }>>();
  });

  it('is still inferred from the defaults, or given as a generic, without a schema', () => {
    const inferred = new DataDriver({ name: 'Plain', store, defaults: { coins: 0 } });
    expectTypeOf(inferred).toEqualTypeOf<DataDriver<{ coins: number }>>();
    const given = new DataDriver<{ coins: number; name?: string }>({
      name: 'Generic',
      store,
      defaults: { coins: 0 },
    });
    expectTypeOf(given).toEqualTypeOf<DataDriver<{ coins: number; name?: string }>>();
  });
});
