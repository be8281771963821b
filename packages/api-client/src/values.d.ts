// Generated from the service's own lists by `npm run generate:api-client`; do not edit.
// test/packages/api-client.test.ts fails when this file differs from them.

/** The frameworks a project may be created with or changed to (src/core/projects.ts). */
export declare const FRAMEWORKS: readonly ["opentelemetry", "go", "nodejs", "nestjs", "javascript", "react", "vue", "svelte", "flutter", "ios", "android", "react-native"];
export type Framework = (typeof FRAMEWORKS)[number];
