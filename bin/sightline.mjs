#!/usr/bin/env node
// Runs the compiled service in dist/ (scripts/build-server.mjs; `npm start`, `prepare` and the
// test run build it), not the TypeScript through tsx: tsx's loader thread costs ~25 MB resident.
await import('../dist/main.js');
