import { vi, type Mock } from 'vitest';
import type { botsApi, knowledgeApi, mailApi, uploadsApi } from '../api';

/** One mock function per call of an API client, so a renamed or added call fails the typecheck here. */
type MockOf<Client> = Record<keyof Client, Mock>;

/**
 * Test helper: stand-ins for the API clients the bot dialog and the knowledge views call. A test
 * file mocks the client module with them and sets answers on the same object:
 *
 *   vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));
 */
export const api = {
  botsApi: {
    list: vi.fn(),
    create: vi.fn(),
    get: vi.fn(),
    update: vi.fn(),
    remove: vi.fn(),
    rotateApiKey: vi.fn(),
    identity: vi.fn(),
    rotateIdentitySecret: vi.fn(),
  } satisfies MockOf<typeof botsApi>,
  mailApi: { usage: vi.fn(), notifyEmails: vi.fn(), resend: vi.fn() } satisfies MockOf<typeof mailApi>,
  uploadsApi: { uploadIcon: vi.fn(), uploadDocument: vi.fn() } satisfies MockOf<typeof uploadsApi>,
  knowledgeApi: {
    list: vi.fn(),
    addFile: vi.fn(),
    addWebsite: vi.fn(),
    addText: vi.fn(),
    refresh: vi.fn(),
    setSchedule: vi.fn(),
    remove: vi.fn(),
    text: vi.fn(),
    updateText: vi.fn(),
    updateCorrection: vi.fn(),
    pages: vi.fn(),
  } satisfies MockOf<typeof knowledgeApi>,
};
