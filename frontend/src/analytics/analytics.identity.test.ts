import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * What the accounts pages need after login and signup (product analytics): the owner is
 * identified and their people properties (email, signupAt, lastLoginAt) are set, in that order,
 * and with no Mixpanel token nothing at all is loaded or sent.
 */

const calls = vi.hoisted(() => [] as string[]);
const mixpanel = vi.hoisted(() => ({
  init: vi.fn(),
  track: vi.fn(),
  identify: vi.fn((id: string) => calls.push(`identify:${id}`)),
  people: { set: vi.fn(() => calls.push('people.set')) },
}));
const moduleLoaded = vi.hoisted(() => vi.fn());

vi.mock('mixpanel-browser', () => {
  moduleLoaded();
  return { default: mixpanel };
});

async function freshAnalytics() {
  vi.resetModules();
  return import('./analytics');
}

const PEOPLE = {
  email: 'owner@example.com',
  signupAt: '2026-11-20T08:00:00.000Z',
  lastLoginAt: '2026-11-22T09:30:00.000Z',
};

describe('analytics: identifying an owner', () => {
  beforeEach(() => {
    calls.length = 0;
    moduleLoaded.mockClear();
    mixpanel.init.mockClear();
    mixpanel.identify.mockClear();
    mixpanel.people.set.mockClear();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    document.head.innerHTML = '';
  });

  it('identifies, then sets email, signupAt and lastLoginAt when a token is configured', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', 'project-token');
    const analytics = await freshAnalytics();

    analytics.identify(42);
    analytics.setPeople(PEOPLE);

    await vi.waitFor(() => expect(mixpanel.people.set).toHaveBeenCalledTimes(1));
    expect(mixpanel.identify).toHaveBeenCalledWith('42');
    expect(mixpanel.people.set).toHaveBeenCalledWith(PEOPLE);
    expect(calls).toEqual(['identify:42', 'people.set']);
    expect(mixpanel.init).toHaveBeenCalledTimes(1);
  });

  it('without a token loads nothing and sends nothing: no module, no script, no request of any kind', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', '');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, 'open');
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    const scriptsBefore = document.querySelectorAll('script').length;
    const analytics = await freshAnalytics();

    analytics.identify(42);
    analytics.setPeople(PEOPLE);
    analytics.track('Signup Completed', { email: PEOPLE.email });
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(analytics.isAnalyticsEnabled()).toBe(false);
    expect(moduleLoaded).not.toHaveBeenCalled();
    expect(mixpanel.identify).not.toHaveBeenCalled();
    expect(mixpanel.people.set).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(xhrOpen).not.toHaveBeenCalled();
    expect(beacon).not.toHaveBeenCalled();
    expect(document.querySelectorAll('script')).toHaveLength(scriptsBefore);
  });

  it('treats a token of only spaces as no token', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', '   ');
    const analytics = await freshAnalytics();
    analytics.identify(7);
    analytics.setPeople(PEOPLE);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(moduleLoaded).not.toHaveBeenCalled();
  });
});
