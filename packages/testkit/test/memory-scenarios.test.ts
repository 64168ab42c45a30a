import { memoryBackend, runHandoffScenarios } from '../src/index.js';

runHandoffScenarios('the in-memory backend and the virtual clock', () => memoryBackend());
