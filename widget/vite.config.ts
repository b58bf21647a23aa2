import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { minifySync } from 'rolldown/experimental';
import { defaultClientConditions, defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The widget is built in passes (`npm run build` runs build.mjs, which runs them all), because an
 * IIFE cannot be code-split and a host page must download as little as possible up front:
 *
 *  1. `--mode window-<language>`, once per file in src/lang/: the chat window (src/window.tsx:
 *     Preact, the Markdown renderer, the streaming client, its CSS as a string, and the widget's
 *     own texts in that language through the `#texts` alias) as one ES module named by its
 *     content hash, dist/widget-assets/window-<language>-<hash>.js, served immutable for a year.
 *     It exports `mount`. A visitor downloads one language, inside the window, and nothing else.
 *  2. `--mode loader`: dist/widget.js (src/index.ts), a dependency-free IIFE served with a short
 *     cache. The window chunks' file names are baked in through `__WINDOW_CHUNKS__`, and the
 *     loader imports the visitor's with `import()` on the launcher's first hover, focus or click.
 *
 * Each pass also writes dist/size-<pass>.json (what every module adds, minified and gzipped on
 * its own), read by bench/widget-size.mjs. No JSON is under a served path.
 */

const root = fileURLToPath(new URL('.', import.meta.url));
const dist = `${root}dist`;

/** Records each module's share of the entry chunk for the size report. */
function sizeReport(pass: string): Plugin {
  return {
    name: 'botsmith-size-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      // The entry (size-<pass>.json) and, for a window, its second chunk (size-extras-<language>.json).
      for (const chunk of Object.values(bundle)) {
        if (chunk.type != 'chunk') continue;
        const modules = Object.entries(chunk.modules).map(([id, m]) => {
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
        const name = chunk.isEntry ? pass : pass.replace('window', 'extras');
        this.emitFile({
          type: 'asset',
          fileName: `size-${name}.json`,
          source: JSON.stringify({ pass: name, file: chunk.fileName, modules }, null, 2),
        });
      }
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
    // (the widget never relies on Function.length, getters with side effects, arrow `this`,
    // `new` on a method or comparisons of objects with NaN-producing valueOf)
    // win about 300 B gzip across loader and window, part of what fits the languages and the
    // conversation menu inside the budgets (bench/widget-size.mjs).
    minify: 'terser',
    terserOptions: {
      ecma: 2020,
      compress: {
        passes: 4,
        unsafe: true,
        unsafe_arrows: true,
        unsafe_comps: true,
        unsafe_methods: true,
        pure_getters: true,
      },
    },
    cssMinify: true,
    modulePreload: false,
    reportCompressedSize: true,
  },
};

function windowConfig(language: string): UserConfig {
  return {
    ...shared,
    resolve: {
      ...shared.resolve,
      alias: {
        '#texts': `${root}src/lang/${language}.ts`,
        '#extras-texts': `${root}src/lang/extras/${language}.ts`,
      },
    },
    plugins: [sizeReport(`window-${language}`)],
    build: {
      ...shared.build,
      // The first language's pass empties dist/ (build.mjs runs English first).
      emptyOutDir: language == 'en',
      // Library mode: Vite then leaves `import('./extras')` as written, without its preload helper
      // (about 600 B gzip that would load nothing here: the second chunk has no CSS file and no
      // dependencies the window has not loaded already).
      lib: { entry: `${root}src/window.tsx`, formats: ['es'] },
      rolldownOptions: {
        // The window may export more than `mount`: what its second chunk shares with it (Preact, the API).
        preserveEntrySignatures: 'allow-extension',
        output: {
          format: 'es',
          entryFileNames: `widget-assets/window-${language}-[hash].js`,
          // The window's second chunk (src/extras/), imported by the window once needed.
          chunkFileNames: `widget-assets/extras-${language}-[hash].js`,
        },
      },
    },
  };
}

/** The languages built: one file per language in src/lang/. */
export function widgetLanguages(): string[] {
  return readdirSync(`${root}src/lang`)
    .filter((name) => /^[a-z]{2}\.ts$/.test(name))
    .map((name) => name.slice(0, 2));
}

function loaderConfig(): UserConfig {
  const chunks: Record<string, string> = {};
  for (const language of widgetLanguages()) {
    const report = JSON.parse(readFileSync(`${dist}/size-window-${language}.json`, 'utf8')) as { file: string };
    chunks[language] = report.file;
  }
  return {
    ...shared,
    plugins: [sizeReport('loader')],
    define: { __WINDOW_CHUNKS__: JSON.stringify(chunks) },
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
  const language = /^window-([a-z]{2})$/.exec(mode)?.[1];
  if (language && widgetLanguages().includes(language)) return windowConfig(language);
  if (mode == 'loader') return loaderConfig();
  throw new Error(
    'Build the widget with `npm run build` (build.mjs: --mode window-<language> for each, then --mode loader).',
  );
});
