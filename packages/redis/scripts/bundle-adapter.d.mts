/**
 * Builds the adapter bundle for the server fixture and returns its file URL. `purpose` ("test",
 * "measure") names its directory, so concurrent users do not clean each other's bundle.
 */
export function bundleAdapter(purpose: string): Promise<string>;
