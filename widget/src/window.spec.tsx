import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendFeedback } from './extras/api';
import { mount } from './window';

afterEach(() => vi.unstubAllGlobals());

describe('mount', () => {
  it("keeps each render's Botsmith.identify proof for the visitor calls (X-Visitor-Identity)", async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchMock);
    const draw = mount(document.createElement('div'), () => undefined);
    const base = { botId: '7', apiOrigin: 'https://api.example', bot: { name: 'Shop' }, botError: '' };
    const given = { ...base, open: false, inline: false, onClose: () => undefined };

    draw({ ...given, visitor: { token: 'aaa.bbb.ccc' } });
    await sendFeedback('https://api.example', '7', 1, 'up');
    draw({ ...given, visitor: { name: 'Ana' } });
    await sendFeedback('https://api.example', '7', 1, 'up');
    draw(null);

    const sent = fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith('/api/chat/feedback'))
      .map((c) => ((c[1] as RequestInit).headers as Record<string, string>)['X-Visitor-Identity']);
    expect(sent).toEqual(['aaa.bbb.ccc', undefined]);
  });
});
