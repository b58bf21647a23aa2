import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { ExamplesSection } from './ExamplesSection';
import { FaqSection } from './FaqSection';
import { HowToSection } from './HowToSection';
import { InfoSection } from './InfoSection';
import { PricingSection } from './PricingSection';

/**
 * Everything below the hero, loaded as its own chunk right after the first paint so that the
 * hero (the largest paint) does not wait for the code of the rest of the page.
 */
export function LandingSections() {
  const { hash } = useLocation();
  useEffect(() => {
    // A visitor who opened /#pricing arrived before this section existed: take them there now.
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
    // Only on arrival; later anchor clicks scroll natively.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <ExamplesSection />
      <InfoSection />
      <HowToSection />
      <PricingSection />
      <FaqSection />
    </>
  );
}
