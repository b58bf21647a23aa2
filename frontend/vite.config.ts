import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

const backend = 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // The contract workspace is compiled from its TypeScript sources (its package.json "source" export).
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names under /assets/: the backend serves that folder as immutable for a year.
    assetsDir: 'assets',
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The runtime every page needs, in one long-cached file instead of many small shared chunks.
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@emotion|stylis|@mui[\\/](system|utils|styled-engine|private-theming))[\\/]/,
            },
          ],
        },
      },
    },
  },
  // The build-time prerender of / (src/entry-prerender.tsx) runs in Node as one self-contained bundle.
  ssr: { noExternal: true, resolve: { conditions: ['source', ...defaultServerConditions] } },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // The API refuses state-changing calls whose Origin is not PUBLIC_URL; the dev server is
      // another origin, so the proxy presents requests as coming from the backend's own.
      '/api': {
        target: backend,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', backend)),
      },
      '/billing': backend,
      '/widget.js': backend,
      '/widget-assets': backend,
      '/uploads': backend,
    },
  },
});
