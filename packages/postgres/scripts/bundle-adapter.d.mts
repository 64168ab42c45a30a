/** Builds the fixture's bundle of src and returns its file URL. */
export function bundleAdapter(): Promise<string>;
