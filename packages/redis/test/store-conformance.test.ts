import { storeConformance } from '@datadriver/testkit';
import { singleNode, storeHarness } from './support/harnesses.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

storeConformance('Redis', storeHarness(singleNode, KEEP), {
  versions: { keep: KEEP },
  scan: true,
});
