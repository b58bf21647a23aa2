import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One built app on embedded defaults for all specs (they use unique e-mails, so they don't collide). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startAppServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}
