let count = 0;

/** A Redis prefix (or DynamoDB table name part) no other test of this run uses. */
export function uniquePrefix(purpose: string): string {
  count += 1;
  return `cli-${purpose}-${process.pid}-${count}-${Date.now().toString(36)}:`;
}
