// The file names hostjs loads, with a version for browsers' caches:
// ./build.sh build writes build/web/assets.js with each asset's
// "NAME?v=HASH" (the first 16 hex digits of its sha256), which codemode
// serve answers as immutable. This source copy names none: unversioned
// names are revalidated on every load.
export const assetNames = {};
