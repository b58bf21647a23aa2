import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, expect, it, vi } from 'vitest';
import EN from '../lang/en';
import { Widget } from '../Widget';

// The second chunk fails to load once (a network blip), then loads.
let failures = 1;
vi.mock('./index', async (importOriginal) => {
  if (failures-- > 0) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

afterEach(cleanup);

it('imports the second chunk again on the next click of the menu after a failed load', async () => {
  // A stored conversation: the window wants its second chunk at once, and that import fails.
  localStorage.setItem('botsmith:chat:7', JSON.stringify({ t: Date.now(), m: [{ role: 'user', content: 'Hello' }] }));
  render(
    <Widget
      botId="7"
      apiOrigin="https://api.example"
      bot={{ id: 7, name: 'Support Bot' }}
      botError=""
      open
      inline={false}
      onClose={() => undefined}
      t={EN}
    />,
  );
  await new Promise((r) => setTimeout(r, 50));
  expect(failures).toBe(0);
  // The visitor opens the menu: the import is tried again and the menu comes.
  fireEvent.click(screen.getByRole('button', { name: 'More options' }));
  expect(await screen.findByRole('menuitem', { name: 'Delete this conversation' })).toBeTruthy();
});
