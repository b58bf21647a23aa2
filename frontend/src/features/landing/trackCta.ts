import { track, type CtaName } from '../../analytics/analytics';

/** Records a click on one of the landing page's calls to action. */
export function trackCta(ctaName: CtaName): void {
  track('CTA Clicked', { cta_name: ctaName });
}
