#!/usr/bin/env node
// Checked before anything is imported: the dependencies load ES modules with require() (fastify's
// light-my-request needs cookie 2, @fastify/static needs content-disposition 3), which Node.js does
// by default only from 20.19 on 20 and from 22.12; elsewhere the import dies in ERR_REQUIRE_ESM.
if (process.features.require_module !== true) {
  process.stderr.write(
    `sightline: Node.js ${process.version} cannot load ES modules with require(), which Sightline's dependencies do: use Node.js 22.12 or newer (or 20.19 or newer on 20), without --no-experimental-require-module\n`,
  );
  process.exitCode = 78; // EX_CONFIG: the machine's Node.js, not Sightline's configuration variables
} else {
  // Runs the compiled service in dist/ (scripts/build-server.mjs; `npm start`, `prepare` and the
  // test run build it), not the TypeScript through tsx: tsx's loader thread costs ~25 MB resident.
  await import('../dist/main.js');
}
