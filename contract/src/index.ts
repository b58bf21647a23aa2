/**
 * The contract between the API (backend/), the dashboard (frontend/) and the widget (widget/):
 * what each side would otherwise write by hand and let drift. Pure TypeScript, no dependencies;
 * every module is free of side effects, so a bundle keeps only what it uses.
 */
export * from './account.js';
export * from './bots.js';
export * from './chat.js';
export * from './pricing.js';
export * from './style-values.js';
export * from './api.js';
export * from './errors.js';
export * from './conversations.js';
export * from './knowledge.js';
export * from './webhooks.js';
export * from './widget-theme.js';
export * from './contrast.js';
export * from './widget-link.js';
export * from './leads.js';
export * from './analytics.js';
export * from './actions.js';
export * from './action-templates.js';
