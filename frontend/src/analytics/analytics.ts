/**
 * Product analytics (docs/product.md#landing-page). Events go to Mixpanel only when a project token is
 * configured (`VITE_MIXPANEL_TOKEN` at build time); without one every call is a no-op and the
 * Mixpanel library is never downloaded, so visitors are not tracked and no request leaves the page.
 * Analytics never throws into the caller.
 */
import type { OverridedMixpanel } from 'mixpanel-browser';

export type CtaName =
  | 'Nav Sign Up'
  | 'Hero Get Started'
  | 'Dashboard Overview: Join and Deploy'
  | 'Pricing Join Now'
  | 'Footer Sign Up'
  | 'Login Page: Sign Up';

export interface AnalyticsEvents {
  'CTA Clicked': { cta_name: CtaName };
  'Signup Completed': { email: string };
  'Bot Created': { bot_id: number; bot_name: string };
}

export type AnalyticsEvent = keyof AnalyticsEvents;

export interface PeopleProperties {
  email?: string;
  signupAt?: string;
  lastLoginAt?: string;
  [property: string]: string | number | boolean | undefined;
}

let loading: Promise<OverridedMixpanel | null> | null = null;

function token(): string {
  return (import.meta.env.VITE_MIXPANEL_TOKEN ?? '').trim();
}

function mixpanel(): Promise<OverridedMixpanel | null> {
  const key = token();
  if (!key) return Promise.resolve(null);
  loading ??= import('mixpanel-browser')
    .then(({ default: client }) => {
      client.init(key, { persistence: 'localStorage', track_pageview: false, ip: false });
      return client;
    })
    .catch(() => {
      loading = null;
      return null;
    });
  return loading;
}

function withClient(action: (client: OverridedMixpanel) => void): void {
  if (!token()) return;
  void mixpanel().then((client) => {
    if (!client) return;
    try {
      action(client);
    } catch {
      // A blocked or broken tracker must never break the page.
    }
  });
}

export function isAnalyticsEnabled(): boolean {
  return token() !== '';
}

export function track<E extends AnalyticsEvent>(event: E, props: AnalyticsEvents[E]): void {
  withClient((client) => {
    client.track(event, props);
  });
}

export function identify(id: string | number): void {
  withClient((client) => {
    client.identify(String(id));
  });
}

export function setPeople(props: PeopleProperties): void {
  const defined = Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
  withClient((client) => {
    client.people.set(defined);
  });
}

/** Drops the loaded client so a test can start from a clean state. */
export function resetAnalyticsForTests(): void {
  loading = null;
}
