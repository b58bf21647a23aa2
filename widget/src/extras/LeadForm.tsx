import t from '#extras-texts';
import { LEAD_LIMITS, type LeadField } from '@botsmith/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PublicBot } from '../lib/types';
import { sendLead } from './api';

/** Each field's input: its type (the phone's keyboard on a phone), what the browser may fill in, its limit. */
const INPUTS: Record<
  Exclude<LeadField, 'message'>,
  [type: 'text' | 'email' | 'tel', autocomplete: string, max: number]
> = {
  name: ['text', 'name', LEAD_LIMITS.name],
  email: ['email', 'email', LEAD_LIMITS.email],
  phone: ['tel', 'tel', LEAD_LIMITS.phone],
};

/** Scrolls the conversation to its end. */
function toEnd(log?: HTMLElement | null): void {
  if (log) log.scrollTop = log.scrollHeight;
}

/**
 * The lead form, in the conversation (docs/product.md#leads-and-handoff): the fields the owner
 * chose, each labelled, the e-mail or the phone required (the browser checks an e-mail's shape
 * and a lone required field; the server checks everything again and its reason is shown).
 * `onSent` gets the thank-you text once the server took the lead.
 */
export function LeadForm({
  apiOrigin,
  botId,
  bot,
  title,
  onSent,
  onCancel,
}: {
  apiOrigin: string;
  botId: string;
  bot: Partial<PublicBot>;
  /** "Talk to a person", or "Leave a message" at the cap, as the launcher says then. */
  title: string;
  onSent: (thanks: string) => void;
  /** Closes the form; none at the cap, where the form replaces the chat. */
  onCancel?: () => void;
}) {
  const fields = bot.leadCapture?.fields || ['email'];
  const [values, setValues] = useState<Partial<Record<LeadField, string>>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // With both the e-mail and the phone asked for, either will do (checked on submit).
  const either = fields.includes('email') && fields.includes('phone');
  const first = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // The form opens where the visitor asked for it, whole: the conversation scrolls to its end
  // (the form is the last thing in it) so its Send shows, and its first field takes the keyboard.
  useEffect(() => {
    toEnd(form.current?.parentElement);
    first.current?.focus({ preventScroll: true });
  }, []);

  async function submit(): Promise<void> {
    const lead: typeof values = {};
    for (const f of fields) {
      const value = values[f]?.trim();
      if (value) lead[f] = value;
    }
    if (!lead.email && !lead.phone) return setError(t.needContact);
    setBusy(true);
    const refused = await sendLead(apiOrigin, botId, lead);
    setBusy(false);
    setError(refused);
    if (!refused) onSent(bot.leadCapture?.thankYouText || t.thanks);
  }

  return (
    <form
      ref={form}
      class="lf"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <strong>{title}</strong>
      {fields.map((f, i) => {
        const ref = i ? undefined : first;
        const value = values[f] || '';
        const onInput = (e: { currentTarget: { value: string } }) =>
          setValues({ ...values, [f]: e.currentTarget.value });
        return (
          <label key={f}>
            {t[f]}
            {f == 'message' ? (
              <textarea name={f} ref={ref} value={value} onInput={onInput} rows={2} maxLength={LEAD_LIMITS.message} />
            ) : (
              <input
                name={f}
                ref={ref}
                value={value}
                onInput={onInput}
                // One type for Preact's typings, which ask a union of input types for `list`
                // (the lint's view of the same types sees no need for it).
                // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
                type={INPUTS[f][0] as 'text'}
                autoComplete={INPUTS[f][1]}
                maxLength={INPUTS[f][2]}
                required={(f == 'email' || f == 'phone') && !either}
              />
            )}
          </label>
        );
      })}
      {error ? <p role="alert">{error}</p> : null}
      <div class="bt">
        {onCancel ? (
          <button type="button" class="c" onClick={onCancel}>
            {t.cancel}
          </button>
        ) : null}
        <button type="submit" class="s" disabled={busy}>
          {t.submit}
        </button>
      </div>
    </form>
  );
}
