/**
 * A `beforeSave` that throws leaves `profile.data` exactly as it was before the hook, in place
 * (`session/replace-contents.ts`): fields it added are gone, fields it removed are back, and the
 * game still holds the same object.
 */
import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import { testBed } from './helpers.js';

describe('a beforeSave that throws after reshaping the data', () => {
  it('leaves the same data object with exactly its fields before the hook', async () => {
    const bed = testBed();
    const driver = bed.driver('A', {
      beforeSave: (profile) => {
        const data = profile.data as Record<string, unknown>;
        data.extra = { added: true };
        delete data.coins;
        throw new Error('the shop is down');
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 5;
    const held = profile.data;
    const error = await bed.clock.run(profile.save().catch((failure: unknown) => failure));
    expect((error as DataDriverError).code).toBe(ErrorCode.HookFailed);
    expect(error).toBeInstanceOf(DataDriverError);
    expect(profile.data).toBe(held);
    expect(Object.keys(profile.data)).toEqual(['coins']);
    expect(profile.data).toStrictEqual({ coins: 5 });
  });
});
