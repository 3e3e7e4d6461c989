import packageJson from '../package.json' with { type: 'json' };

/** The helper's version: package.json's, bundled into the single executable when it is built. */
export const HELPER_VERSION: string = packageJson.version;
