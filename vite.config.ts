import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstPageChunkName } from './scripts/firstPageChunk';
import { CSP_NONCE_PLACEHOLDER } from './server/security/csp';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  // The server replaces the placeholder with a fresh nonce per response (server/security/headers.ts).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
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
