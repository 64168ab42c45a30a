import { messengerConformance } from '@datadriver/testkit';
import { messengerHarness, singleNode } from './support/harnesses.js';

messengerConformance('Redis pub/sub', messengerHarness(singleNode, false));
messengerConformance('Redis sharded pub/sub', messengerHarness(singleNode, true));
