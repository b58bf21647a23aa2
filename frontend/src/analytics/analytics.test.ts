import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mixpanel = vi.hoisted(() => ({
  init: vi.fn(),
  track: vi.fn(),
  identify: vi.fn(),
  people: { set: vi.fn() },
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

describe('analytics', () => {
  beforeEach(() => {
    moduleLoaded.mockClear();
    mixpanel.init.mockClear();
    mixpanel.track.mockClear();
    mixpanel.identify.mockClear();
    mixpanel.people.set.mockClear();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('does nothing and never loads Mixpanel without a token', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', '');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const analytics = await freshAnalytics();

    analytics.track('CTA Clicked', { cta_name: 'Hero Get Started' });
    analytics.identify(42);
    analytics.setPeople({ email: 'owner@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(analytics.isAnalyticsEnabled()).toBe(false);
    expect(moduleLoaded).not.toHaveBeenCalled();
    expect(mixpanel.init).not.toHaveBeenCalled();
    expect(mixpanel.track).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('loads Mixpanel once and sends events when a token is configured', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', 'test-token');
    const analytics = await freshAnalytics();

    analytics.track('CTA Clicked', { cta_name: 'Nav Sign Up' });
    analytics.identify(42);
    analytics.setPeople({ email: 'owner@example.com', lastLoginAt: undefined });

    await vi.waitFor(() => expect(mixpanel.people.set).toHaveBeenCalled());
    expect(mixpanel.init).toHaveBeenCalledTimes(1);
    expect(mixpanel.init.mock.calls[0][0]).toBe('test-token');
    expect(mixpanel.track).toHaveBeenCalledWith('CTA Clicked', { cta_name: 'Nav Sign Up' });
    expect(mixpanel.identify).toHaveBeenCalledWith('42');
    expect(mixpanel.people.set).toHaveBeenCalledWith({ email: 'owner@example.com' });
  });

  it('never throws into the page when the tracker fails', async () => {
    vi.stubEnv('VITE_MIXPANEL_TOKEN', 'test-token');
    mixpanel.track.mockImplementationOnce(() => {
      throw new Error('blocked');
    });
    const analytics = await freshAnalytics();

    expect(() => analytics.track('CTA Clicked', { cta_name: 'Footer Sign Up' })).not.toThrow();
    await vi.waitFor(() => expect(mixpanel.track).toHaveBeenCalled());
  });
});
