/**
 * The backend's dependency rules, checked by `npm run lint:deps` (scripts/check-dependencies.mjs,
 * which also refuses cycles between modules: two modules that import each other, directly or
 * through others, even when no single file closes the loop). A module is a folder under src/modules/;
 * common/ holds what every module may use and must not know any module; app.setup.ts assembles
 * the application and no module may reach back into it.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'common-imports-module',
      comment: 'common/ and config/ are shared by every module, so they may not depend on any of them.',
      severity: 'error',
      from: { path: '^src/(common|config)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'module-imports-app-setup',
      comment: 'app.setup.ts assembles the modules; a module depending on it runs the wrong way.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/app\\.setup\\.ts$' },
    },
    {
      name: 'conversations-imports-chat',
      comment:
        'conversations/ owns the conversation log and the chat engine (chat/) records turns through it: ' +
        'the import runs chat -> conversations only (docs/architecture.md#backend-modules).',
      severity: 'error',
      from: { path: '^src/modules/conversations/' },
      to: { path: '^src/modules/chat/' },
    },
    {
      name: 'chat-uses-conversation-log',
      comment:
        'The chat engine reaches the conversation log through its narrow interface (ConversationLog, ' +
        'its module and types), never the repositories that write the tables.',
      severity: 'error',
      from: { path: '^src/modules/chat/' },
      to: {
        path: '^src/modules/conversations/',
        pathNot: '^src/modules/conversations/(conversation-log|conversations-data\\.module|message\\.entity)\\.ts$',
      },
    },
    {
      name: 'actions-imports-chat',
      comment:
        'actions/ (docs/product.md#actions) owns the actions and their runner; the chat engine calls the runner, ' +
        'so the import runs chat -> actions only.',
      severity: 'error',
      from: { path: '^src/modules/actions/' },
      to: { path: '^src/modules/(chat|conversations)/' },
    },
    {
      name: 'file-cycle-across-modules',
      comment: 'A chain of imports that leaves a module and comes back to it.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^src/modules/$1/' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
