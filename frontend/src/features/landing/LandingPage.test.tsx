import { ThemeProvider } from '@mui/material/styles';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { track } from '../../analytics/analytics';
import { theme } from '../../theme/theme';
import { ExamplesSection } from './ExamplesSection';
import { renderRoute } from '../../test/render';

vi.mock('../../analytics/analytics', () => ({ track: vi.fn(), identify: vi.fn(), setPeople: vi.fn() }));

/** Matches an element whose own full text is `text`, even when split over child elements. */
function fullText(text: string) {
  return (_: string, element: Element | null) =>
    element?.textContent === text && ![...(element.children ?? [])].some((child) => child.textContent === text);
}

/** Opens / and waits for the sections below the hero, which load as a separate chunk. */
async function renderLanding() {
  const result = renderRoute('/');
  await screen.findByRole('heading', { level: 2, name: 'What is Botsmith?' }, { timeout: 10_000 });
  await screen.findByRole('contentinfo', {}, { timeout: 10_000 });
  return result;
}

type ObserverCallback = (entries: Array<Partial<IntersectionObserverEntry>>) => void;

/** A controllable IntersectionObserver: tests decide when the fan becomes visible. */
function stubIntersectionObserver() {
  const callbacks: ObserverCallback[] = [];
  class FakeObserver {
    constructor(callback: ObserverCallback) {
      callbacks.push(callback);
    }
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  // The demo video plays when it comes into view; jsdom has no media playback.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockReturnValue(undefined);
  return {
    showAll(ratio: number) {
      act(() => callbacks.forEach((callback) => callback([{ isIntersecting: ratio > 0, intersectionRatio: ratio }])));
    },
  };
}

function stubWindowWidth(width: number) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => {
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      return {
        matches: max ? width <= Number(max[1]) : false,
        media: query,
        onchange: null,
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        addListener: vi.fn(),
        removeListener: vi.fn(),
        dispatchEvent: vi.fn(),
      };
    }),
  );
}

describe('landing page', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.mocked(track).mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows every section in order with its quoted texts', async () => {
    await renderLanding();
    const hero = await screen.findByRole('heading', { level: 1 });
    expect(hero).toHaveTextContent(/^Build Smarter Bots with Botsmith$/);
    expect(
      screen.getByText('The easiest way to create, style, and launch AI chatbots — no code needed.'),
    ).toBeInTheDocument();

    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    const order = [
      'Fits Any Brand',
      'What is Botsmith?',
      'Build and Launch a Custom Bot in Minutes',
      'Pay for answers, not for seats',
      'Questions, answered',
    ].map((title) => headings.indexOf(title));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const ids = [...document.querySelectorAll('main section[id]')].map((section) => section.id);
    expect(ids).toEqual(['info', 'how-to', 'pricing', 'faq']);

    for (const name of ['E-Commerce Assistant', 'Personal Coach', 'Tech Blog', 'Customer Support', 'HR Help Desk']) {
      expect(screen.getByRole('button', { name: `View the ${name} example` })).toBeInTheDocument();
    }
    expect(screen.getAllByText('Click to view')).toHaveLength(5);
    expect(screen.getByText('Tap a card to view it')).toBeInTheDocument();
    expect(screen.getByText('Total control over design, color, greeting, tone, and feel.')).toBeInTheDocument();

    for (const step of [
      'Add Your Bot',
      'Style It Your Way',
      'Perfect the Prompts',
      'Track Usage & Monitor Performance',
    ]) {
      expect(screen.getByRole('heading', { level: 3, name: step })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'Deploy Anywhere in Seconds' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join and Deploy' })).toHaveAttribute('href', '/signup');

    const pricing = screen.getByRole('region', { name: 'Pay for answers, not for seats' });
    expect(pricing).toHaveAttribute('id', 'pricing');
    expect(within(pricing).getByText(fullText('3¢ a message'))).toBeInTheDocument();
    expect(within(pricing).getByText(/Larger models cost 1¢ more/)).toBeInTheDocument();
    expect(within(pricing).getByText('$5 in free credits')).toBeInTheDocument();
    expect(within(pricing).getByRole('link', { name: 'Join Now' })).toHaveAttribute('href', '/signup');
    const table = screen.getByRole('table', { name: /compared with other chatbot platforms/ });
    expect(within(table).getByRole('row', { name: /Price per message\s+3¢\s+5¢/ })).toBeInTheDocument();
    expect(within(table).getByText('$20+ separate bill')).toBeInTheDocument();
    for (const feature of ['Free credits', 'API key hosting', 'Billing handled']) {
      expect(within(table).getByRole('rowheader', { name: feature })).toBeInTheDocument();
    }

    const faq = document.getElementById('faq')!;
    expect(within(faq).getAllByRole('button', { expanded: false })).toHaveLength(6);

    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    expect(within(footer).getByRole('link', { name: 'support@botsmith.dev' })).toHaveAttribute(
      'href',
      'mailto:support@botsmith.dev',
    );
    expect(within(footer).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
    expect(within(footer).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    const useCases = within(within(footer).getByRole('navigation', { name: 'Use cases' })).getAllByRole('link');
    expect(useCases.length).toBeGreaterThanOrEqual(3);
    for (const link of useCases) {
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAttribute('target', '_blank');
    }
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Botsmith`)).toBeInTheDocument();
  });

  it('shows the $5 credit tooltip on the Get Started button, which leads to /signup', async () => {
    const user = userEvent.setup();
    await renderLanding();
    const getStarted = await screen.findByRole('link', { name: /Get Started/ });
    expect(getStarted).toHaveAttribute('href', '/signup');
    await user.hover(getStarted);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Join now for free and receive a $5 credit for your bots!',
    );
  });

  it('links the navigation to the anchors and account pages, and the logo to /login in a new tab', async () => {
    await renderLanding();
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'What is Botsmith' })).toHaveAttribute('href', '#info');
    expect(within(nav).getByRole('link', { name: 'How to Use' })).toHaveAttribute('href', '#how-to');
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
    expect(within(nav).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    const logo = screen.getByRole('link', { name: /Botsmith, sign in/ });
    expect(logo).toHaveAttribute('href', '/login');
    expect(logo).toHaveAttribute('target', '_blank');
  });

  it('toggles the hamburger dropdown with the same five links', async () => {
    const user = userEvent.setup();
    await renderLanding();
    await screen.findByRole('heading', { level: 1 });
    // The button is shown by a CSS media query below 768 px, which jsdom does not evaluate (so it
    // counts as hidden, and hidden elements have no accessible name): find it by what it controls.
    const toggle = document.querySelector<HTMLButtonElement>('button[aria-controls="landing-mobile-menu"]')!;
    expect(toggle).toHaveAttribute('aria-label', 'Open menu');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();

    await user.click(toggle);
    const menu = screen.getByRole('navigation', { name: 'Menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['What is Botsmith', '#info'],
      ['How to Use', '#how-to'],
      ['Pricing', '#pricing'],
      ['Sign Up', '/signup'],
      ['Sign In', '/login'],
    ]);
    expect(toggle).toHaveAttribute('aria-label', 'Close menu');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    await user.click(toggle);
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument(), {
      timeout: 5000,
    });
    expect(toggle).toHaveAttribute('aria-label', 'Open menu');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the dropdown when one of its links is followed', async () => {
    const user = userEvent.setup();
    await renderLanding();
    await screen.findByRole('heading', { level: 1 });
    const toggle = document.querySelector<HTMLButtonElement>('button[aria-controls="landing-mobile-menu"]')!;
    await user.click(toggle);
    await user.click(within(screen.getByRole('navigation', { name: 'Menu' })).getByRole('link', { name: 'Pricing' }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument(), {
      timeout: 5000,
    });
  });

  it('keeps one FAQ answer open at a time and closes it on a second click', async () => {
    const user = userEvent.setup();
    await renderLanding();
    const faq = await screen.findByRole('region', { name: /Questions, answered/ });
    const [first, second] = within(faq).getAllByRole('button');

    await user.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');

    await user.click(second);
    expect(second).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveAttribute('aria-expanded', 'false');

    await user.click(second);
    expect(within(faq).queryAllByRole('button', { expanded: true })).toHaveLength(0);
  });

  it('opens a card in the image viewer and closes it on a backdrop click', async () => {
    const user = userEvent.setup();
    await renderLanding();
    await user.click(await screen.findByRole('button', { name: 'View the Tech Blog example' }));

    const dialog = await screen.findByRole('dialog', { name: 'Tech Blog' });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', '/landing/tech-blog-full.webp');

    const backdrop = document.querySelector('.MuiBackdrop-root');
    expect(backdrop).not.toBeNull();
    fireEvent.mouseDown(backdrop!);
    fireEvent.click(backdrop!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 5000 });
  });

  it('fans the cards out once about 30% of the fan is visible', async () => {
    const observer = stubIntersectionObserver();
    await renderLanding();
    const fan = await screen.findByTestId('example-fan');
    expect(fan).toHaveAttribute('data-fanned', 'false');

    observer.showAll(0.1);
    expect(fan).toHaveAttribute('data-fanned', 'false');

    observer.showAll(0.3);
    expect(fan).toHaveAttribute('data-fanned', 'true');
  });

  it('fans the cards out after 1 second on windows 768 px wide or narrower', async () => {
    stubIntersectionObserver();
    stubWindowWidth(768);
    vi.useFakeTimers();
    render(
      <ThemeProvider theme={theme}>
        <ExamplesSection />
      </ThemeProvider>,
    );
    const fan = screen.getByTestId('example-fan');
    expect(fan).toHaveAttribute('data-fanned', 'false');

    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(fan).toHaveAttribute('data-fanned', 'false');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(fan).toHaveAttribute('data-fanned', 'true');
  });

  it('shows a still picture instead of the demo video on phones', async () => {
    stubWindowWidth(390);
    await renderLanding();
    const info = await screen.findByRole('region', { name: 'What is Botsmith?' });
    expect(within(info).getByRole('img', { name: /Demo:/ })).toHaveAttribute('src', '/landing/demo-mobile.webp');
    expect(info.querySelector('video')).toBeNull();
  });

  it('plays the demo video on desktop', async () => {
    await renderLanding();
    const info = await screen.findByRole('region', { name: 'What is Botsmith?' });
    const video = info.querySelector('video');
    expect(video).not.toBeNull();
    expect([...video!.querySelectorAll('source')].map((source) => source.getAttribute('src'))).toEqual([
      '/landing/demo.webm',
      '/landing/demo.mp4',
    ]);
  });

  it.each([
    [/Get Started/, 'Hero Get Started', undefined],
    ['Sign Up', 'Nav Sign Up', 'Main'],
    ['Join and Deploy', 'Dashboard Overview: Join and Deploy', undefined],
    ['Join Now', 'Pricing Join Now', undefined],
    ['Sign Up', 'Footer Sign Up', 'Account'],
  ])('records the CTA click on %s as "%s"', async (name, ctaName, container) => {
    const user = userEvent.setup();
    await renderLanding();
    await screen.findByRole('heading', { level: 1 });
    const scope = container ? within(screen.getByRole('navigation', { name: container })) : screen;
    await user.click(scope.getByRole('link', { name }));
    expect(track).toHaveBeenCalledWith('CTA Clicked', { cta_name: ctaName });
  });

  it('loads the widget of bot 1 while shown and removes it when left', async () => {
    const { unmount } = await renderLanding();
    await screen.findByRole('heading', { level: 1 });
    const script = document.querySelector<HTMLScriptElement>('script[src="/widget.js"]');
    expect(script).not.toBeNull();
    expect(script!.dataset.botId).toBe('1');
    expect(script!.async).toBe(true);

    unmount();
    expect(document.querySelector('script[src="/widget.js"]')).toBeNull();
  });

  it('adopts the embed the prerendered HTML already holds instead of adding a second one', async () => {
    const embedded = document.createElement('script');
    embedded.src = '/widget.js';
    embedded.dataset.botId = '1';
    document.body.appendChild(embedded);
    // Another bot's or the inline window's embed is not the landing page's.
    const other = document.createElement('script');
    other.src = '/widget.js';
    other.dataset.botId = '1';
    other.dataset.inline = 'true';
    document.body.appendChild(other);

    const { unmount } = await renderLanding();
    await screen.findByRole('heading', { level: 1 });
    expect(Array.from(document.querySelectorAll('script[src="/widget.js"]'))).toEqual([embedded, other]);

    unmount();
    expect(embedded.isConnected).toBe(false);
    expect(other.isConnected).toBe(true);
    other.remove();
  });
});
