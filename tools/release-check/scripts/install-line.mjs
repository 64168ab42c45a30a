// The npm command that installs one published package from its tarball into a user's project:
// the tarballs of every @datadriver package it needs (an npm install of a tarball cannot fetch
// a sibling that is not on the registry yet) and its other peers within their ranges.

/**
 * The npm spec of a peer range, as a shell word: the first alternative's major (its minor
 * below 1.0), which npm resolves inside the range (`^5.11.1 || ^6.0.0` is `5`, `~0.16.20` is
 * `0.16`). A bare name would install the latest major, which may lie outside the range.
 * @param {string} name
 * @param {string} range
 */
export function peerSpec(name, range) {
  const version = /(\d+)\.(\d+)/.exec(range.split('||')[0] ?? '');
  if (!version) return name;
  return `${name}@${version[1] === '0' ? `0.${version[2]}` : version[1]}`;
}

/**
 * @param {string} name "@datadriver/cli"
 * @param {ReadonlyMap<string, import('./install-line.d.mts').InstallManifest>} manifests the
 *   published packages' manifests by name, in the order their tarballs are listed
 * @param {(name: string) => string} tarballOf
 * @returns {string}
 */
export function installLine(name, manifests, tarballOf) {
  const needed = new Set([name]);
  for (const current of needed) {
    const manifest = manifests.get(current);
    if (!manifest) throw new Error(`${current} is not a published package`);
    for (const field of [manifest.dependencies, manifest.peerDependencies]) {
      for (const dependency of Object.keys(field ?? {})) {
        if (manifests.has(dependency)) needed.add(dependency);
      }
    }
  }
  const ordered = [...manifests.keys()].filter((candidate) => needed.has(candidate));
  const manifestsNeeded = ordered.map((candidate) => manifests.get(candidate));
  const installedAnyway = new Set(
    manifestsNeeded.flatMap((m) => Object.keys(m?.dependencies ?? {})),
  );
  /** @type {Map<string, string>} */
  const peers = new Map();
  for (const manifest of manifestsNeeded) {
    for (const [peer, range] of Object.entries(manifest?.peerDependencies ?? {})) {
      if (!manifests.has(peer) && !installedAnyway.has(peer) && !peers.has(peer))
        peers.set(peer, range);
    }
  }
  const peerWords = [...peers].map(([peer, range]) => peerSpec(peer, range));
  return ['npm install', ...ordered.map(tarballOf), ...peerWords].join(' ');
}
