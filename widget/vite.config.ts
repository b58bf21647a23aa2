import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { minifySync } from 'rolldown/experimental';
import { defaultClientConditions, defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The widget is built in two passes (`npm run build` runs both), because an IIFE cannot be
 * code-split and a host page must download as little as possible up front:
 *
 *  1. `vite build --mode window`: the chat window (src/window.tsx: Preact, the Markdown renderer,
 *     the streaming client, its CSS as a string) as one ES module named by its content hash,
 *     dist/widget-assets/window-<hash>.js, served immutable for a year. It exports `mount`.
 *  2. `vite build --mode loader`: dist/widget.js (src/index.ts), a dependency-free IIFE served
 *     with a short cache. The window chunk's file name is baked in through `__WINDOW_CHUNK__`,
 *     and the loader imports it with `import()` on the launcher's first hover, focus or click.
 *
 * Each pass also writes dist/size-<pass>.json (what every module adds, minified and gzipped on
 * its own), read by bench/widget-size.mjs. Neither JSON is under a served path.
 */

const root = fileURLToPath(new URL('.', import.meta.url));
const dist = `${root}dist`;

/** Records each module's share of the entry chunk for the size report. */
function sizeReport(pass: 'window' | 'loader'): Plugin {
  return {
    name: 'botsmith-size-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type == 'chunk' && c.isEntry);
      if (!entry || entry.type != 'chunk') return;
      const modules = Object.entries(entry.modules).map(([id, m]) => {
        const code = m.code ?? '';
        let min = code;
        try {
          // Script mode: a module's top-level names stay, as they would in the bundle.
          min = minifySync('module.js', code, { module: false }).code;
        } catch {
          /* a fragment that does not parse alone is counted unminified */
        }
        return {
          id: id.startsWith(root) ? id.slice(root.length) : id.replace(/^.*node_modules\//, 'node_modules/'),
          rendered: m.renderedLength,
          minified: Buffer.byteLength(min),
          gzip: min ? gzipSync(min, { level: 9 }).length : 0,
        };
      });
      this.emitFile({
        type: 'asset',
        fileName: `size-${pass}.json`,
        source: JSON.stringify({ pass, file: entry.fileName, modules }, null, 2),
      });
    },
  };
}

const shared: UserConfig = {
  publicDir: false,
  // The contract workspace is compiled from its TypeScript sources (its package.json "source"
  // export) and tree-shaken: it declares no side effects.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: dist,
    target: 'es2020',
    // Modern CSS as written: an older target makes lightningcss expand system-ui into a long font list.
    cssTarget: ['chrome100', 'firefox100', 'safari15'],
    // Terser over the default minifier: its extra passes and unsafe-but-sound-here rewrites
    // (the widget never relies on Function.length, getters with side effects or arrow `this`)
    // win about 300 B gzip across the two files, which is what fits the language packs and the
    // conversation menu inside the budgets (bench/widget-size.mjs).
    minify: 'terser',
    terserOptions: {
      ecma: 2020,
      compress: { passes: 3, unsafe: true, unsafe_arrows: true, pure_getters: true },
    },
    cssMinify: true,
    modulePreload: false,
    reportCompressedSize: true,
  },
};

function windowConfig(): UserConfig {
  return {
    ...shared,
    plugins: [sizeReport('window')],
    build: {
      ...shared.build,
      emptyOutDir: true,
      rolldownOptions: {
        input: `${root}src/window.tsx`,
        preserveEntrySignatures: 'exports-only',
        output: { format: 'es', entryFileNames: 'widget-assets/window-[hash].js' },
      },
    },
  };
}

function loaderConfig(): UserConfig {
  const windowReport = JSON.parse(readFileSync(`${dist}/size-window.json`, 'utf8')) as { file: string };
  return {
    ...shared,
    plugins: [sizeReport('loader')],
    define: { __WINDOW_CHUNK__: JSON.stringify(windowReport.file) },
    build: {
      ...shared.build,
      emptyOutDir: false,
      rolldownOptions: {
        input: `${root}src/index.ts`,
        output: { format: 'iife', entryFileNames: 'widget.js' },
      },
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode == 'window') return windowConfig();
  if (mode == 'loader') return loaderConfig();
  throw new Error('Build the widget with `npm run build` (two passes: --mode window, then --mode loader).');
});
