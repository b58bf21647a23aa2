import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBotId, WidgetPage } from './WidgetPage';

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/widget" element={<WidgetPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const widgetScripts = () => document.querySelectorAll('script[src="/widget.js"]');

describe('WidgetPage (/widget)', () => {
  afterEach(() => document.querySelectorAll('script').forEach((s) => s.remove()));

  it('shows its error without a botId and loads no widget', () => {
    renderAt('/widget');
    expect(screen.getByText('Error: No botId specified in the URL.')).toBeInTheDocument();
    expect(widgetScripts()).toHaveLength(0);
  });

  it('injects the real widget in inline mode for the bot, and removes it on leaving', () => {
    const { unmount } = renderAt('/widget?botId=42');
    const scripts = widgetScripts();
    expect(scripts).toHaveLength(1);
    const script = scripts[0] as HTMLScriptElement;
    expect(script.dataset.botId).toBe('42');
    expect(script.dataset.inline).toBe('true');
    unmount();
    expect(widgetScripts()).toHaveLength(0);
  });

  it('accepts only positive integer ids', () => {
    expect(parseBotId('7')).toBe(7);
    expect(parseBotId('0')).toBeUndefined();
    expect(parseBotId('7abc')).toBeUndefined();
    expect(parseBotId('-1')).toBeUndefined();
    expect(parseBotId(null)).toBeUndefined();
  });
});
