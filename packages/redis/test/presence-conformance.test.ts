import { presenceConformance } from '@datadriver/testkit';
import { presenceHarness, singleNode } from './support/harnesses.js';

presenceConformance('Redis', presenceHarness(singleNode), { scan: true, getEntry: true });
