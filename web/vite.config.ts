/**
 * Builds the dashboard into web/dist, which the service's application surface serves at `/`.
 * `npm run dev` runs this with the API proxied to a service started by `npm start` (SIGHTLINE_URL
 * overrides where it runs), so the UI reloads on save while talking to real data.
 */
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const target = process.env.SIGHTLINE_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The service answers index.html itself; hashed files live under assets/ and are cached forever.
    assetsDir: 'assets',
    // The CSP forbids inline scripts: never inline the module preload polyfill or small assets as data: scripts.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': { target, changeOrigin: false },
      '/.well-known': { target },
    },
  },
});
