import { isDeepStrictEqual } from 'node:util';

/**
 * `read()` once what it reads stops changing: two reads 300 ms apart that agree (5 s at most).
 * A beat already on its way when a server crashed still lands, some hundreds of ms later on a
 * loaded machine, so tables read right after a crash may still move.
 */
export async function settledRead<T>(read: () => Promise<T>): Promise<T> {
  let last = await read();
  for (let tries = 0; tries < 16; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await read();
    if (isDeepStrictEqual(next, last)) return next;
    last = next;
  }
  throw new Error('the tables kept changing after every server crashed');
}
