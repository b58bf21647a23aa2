import { SimplePage } from '../../layout/SimplePage';

/** / — the marketing page (landing issue). */
export function LandingPage() {
  return <SimplePage title="Build Smarter Bots with Botsmith" />;
}
