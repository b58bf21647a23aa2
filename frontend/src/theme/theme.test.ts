import { describe, expect, it } from 'vitest';
import { theme } from './theme';

type Override = (props: { theme: typeof theme }) => Record<string, unknown>;

function focusRing(component: 'MuiButtonBase' | 'MuiButton' | 'MuiListItemButton' | 'MuiCardActionArea') {
  const root = theme.components?.[component]?.styleOverrides?.root as unknown as Override;
  return root({ theme })['&.Mui-focusVisible'] as { outline: string; outlineOffset: number };
}

// Issue 27: the bot card's focus ring was barely visible. Every focusable control gets a solid
// 3 px ring in the brand green (5.5:1 on white), never a faded one.
describe('the focus ring', () => {
  it.each(['MuiButtonBase', 'MuiButton', 'MuiListItemButton', 'MuiCardActionArea'] as const)(
    '%s shows a solid 3 px outline in the primary colour when focused by keyboard',
    (component) => {
      const ring = focusRing(component);
      expect(ring.outline).toBe(`3px solid ${theme.palette.primary.main}`);
      expect(ring.outline).not.toMatch(/rgba/);
    },
  );

  it('draws the card’s and the list item’s ring inside, where rounded corners cannot clip it', () => {
    expect(focusRing('MuiCardActionArea').outlineOffset).toBeLessThan(0);
    expect(focusRing('MuiListItemButton').outlineOffset).toBeLessThan(0);
  });
});
