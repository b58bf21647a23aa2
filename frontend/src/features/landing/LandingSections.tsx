import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { FaqSection } from './FaqSection';
import { HowToSection } from './HowToSection';
import { InfoSection } from './InfoSection';
import { PricingSection } from './PricingSection';

/**
 * The sections below the examples, loaded as their own chunk right after the first paint so that
 * the first screen (hero and examples, where the largest paint is) does not wait for their code.
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
      <InfoSection />
      <HowToSection />
      <PricingSection />
      <FaqSection />
    </>
  );
}
