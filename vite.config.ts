import { constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { bootPage } from './scripts/bootPage.ts';
import { devTenantPage } from './scripts/devTenantPage.ts';
import { firstPageChunkName } from './scripts/firstPageChunk.ts';
import { workspaceSources } from './scripts/workspaceSources.ts';
import { CSP_NONCE_PLACEHOLDER } from './server/security/csp.ts';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    workspaceSources(import.meta.dirname),
    react(),
    ...bootPage(),
    devTenantPage(),
    // Brotli and gzip siblings of every asset, served by @fastify/static's preCompressed (D84);
    // index.html is left out: the server compresses it per response, with its fresh nonce.
    compression({
      include: /\.(js|css|svg|json)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  resolve: {
    alias: {
      // React 19 has useSyncExternalStore: the package's own non-shim build uses it, and the shim
      // (for React 16 and 17) stays off the first page (D110).
      'use-sync-external-store/shim/with-selector': 'use-sync-external-store/with-selector',
    },
  },
  // The server replaces the placeholder with a fresh nonce per response (server/security/headers.ts).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // The first page is one chunk by design (D29); its size is watched by `npm run bench bundle`.
    chunkSizeWarningLimit: 700,
    // Browsers without <link rel=modulepreload> still load on-demand chunks, only without the
    // early fetch of their imports; the polyfill would cost every first page (D110).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: (id, context) => firstPageChunkName(id, (m) => context.getModuleInfo(m)) },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/public', '/service', '/lookup', '/healthz'].map((path) => [path, api]),
    ),
  },
});
