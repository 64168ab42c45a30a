export * from './json-problems.js';
export * from './lock-rules.js';
export * from './migrations.js';
export * from './record.js';
export * from './record-size.js';
export * from './record-writes.js';
export * from './trade-rules.js';
