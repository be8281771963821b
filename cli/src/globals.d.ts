/** Replaced by the build (build.mjs) with the package version. */
declare const SIGHTLINE_CLI_VERSION: string;
