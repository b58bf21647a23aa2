import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PricingSection } from './PricingSection';

describe('PricingSection', () => {
  it('says an answer the bot could not give is not charged (docs/product.md#the-fair-meter)', () => {
    render(
      <MemoryRouter>
        <PricingSection />
      </MemoryRouter>,
    );
    expect(
      screen.getByText(
        'One simple price per answered message, and nothing for an answer the bot could not give. Your model, hosting and billing are all included.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('No charge for answers the bot could not give')).toBeInTheDocument();
  });
});
