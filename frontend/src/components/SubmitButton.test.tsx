import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './SubmitButton';

/** A form as the dashboard writes them: submitting starts a save that stays pending. */
function Form({ onSubmit }: { onSubmit: () => void }) {
  const [saving, setSaving] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
    setSaving(true);
  };
  return (
    <form onSubmit={submit}>
      <input aria-label="Name" />
      <SubmitButton label="Save Details" saving={saving} />
    </form>
  );
}

describe('SubmitButton', () => {
  it('keeps the focus on the button while saving, so the dialog still hears the keyboard', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    const saving = screen.getByRole('button', { name: 'Saving…' });
    expect(saving).toHaveAttribute('aria-disabled', 'true');
    expect(saving).toHaveFocus();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('submits nothing more while saving: neither a click nor Enter in a field', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await userEvent.click(screen.getByRole('button', { name: 'Saving…' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Ana{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('is disabled outright when there is nothing to save', () => {
    render(<SubmitButton label="Save Details" saving={false} disabled />);
    expect(screen.getByRole('button', { name: 'Save Details' })).toBeDisabled();
  });
});
