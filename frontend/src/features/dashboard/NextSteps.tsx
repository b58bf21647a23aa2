import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import RadioButtonUncheckedRounded from '@mui/icons-material/RadioButtonUncheckedRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { OnboardingState } from '@botsmith/contract';
import { useEffect, useState } from 'react';
import { conversationsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import type { EditBotTab } from '../bots/EditBotDialog';

/** Dismissal is kept per account in this browser (docs/product.md#next-steps). */
export const nextStepsDismissedKey = (accountId: number) => `botsmith.nextSteps.dismissed.${accountId}`;

function readDismissed(accountId: number): boolean {
  try {
    return window.localStorage.getItem(nextStepsDismissedKey(accountId)) === '1';
  } catch {
    return false;
  }
}

export interface NextStepsProps {
  accountId: number;
  bots: BotResponse[] | null;
  /** Read again when this changes (the edit dialog closed: a step may be done now). */
  refreshKey?: unknown;
  onOpenBot: (botId: number, tab: EditBotTab) => void;
  onAddBot: () => void;
}

const STEPS: Array<{ key: keyof OnboardingState; title: string; text: string; action: string; tab: EditBotTab }> = [
  {
    key: 'hasKnowledge',
    title: 'Add knowledge to a bot',
    text: 'Upload a document, add a website or paste text so it answers from your content.',
    action: 'Add knowledge',
    tab: 'knowledge',
  },
  {
    key: 'hasConversation',
    title: 'Try it',
    text: 'Ask your bot a question in the live preview.',
    action: 'Open the preview',
    tab: 'styling',
  },
  {
    key: 'onSite',
    title: 'Put it on your site',
    text: 'Paste one line into your pages; this ticks once a visitor chats there.',
    action: 'Get the snippet',
    tab: 'deploy',
  },
];

/**
 * The "Next steps" checklist above a new account's bots: each step ticked from what the account
 * records (GET /api/onboarding), not from clicks; gone once all three are done or dismissed.
 */
export function NextSteps({ accountId, bots, refreshKey, onOpenBot, onAddBot }: NextStepsProps) {
  const [state, setState] = useState<OnboardingState | null>(null);
  const [dismissed, setDismissed] = useState(() => readDismissed(accountId));

  useEffect(() => {
    if (dismissed) return;
    let live = true;
    // The checklist is a hint: on any error (even a synchronous one) it simply stays away.
    Promise.resolve()
      .then(() => conversationsApi.onboarding())
      .then(
        (next) => live && setState(next),
        () => live && setState(null),
      );
    return () => {
      live = false;
    };
  }, [dismissed, refreshKey]);

  if (dismissed || !state || !bots) return null;
  const done = STEPS.filter((step) => state[step.key]).length;
  if (done === STEPS.length) return null;
  const target = bots[0];

  const dismiss = () => {
    try {
      window.localStorage.setItem(nextStepsDismissedKey(accountId), '1');
    } catch {
      // Private mode: hidden for this visit only.
    }
    setDismissed(true);
  };

  return (
    <Box
      component="section"
      aria-labelledby="next-steps-title"
      sx={{
        mb: 3,
        p: { xs: 2, sm: 2.5 },
        borderRadius: 3,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
        <Box>
          <Typography id="next-steps-title" variant="h6" component="h2">
            Next steps
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {done} of {STEPS.length} done
          </Typography>
        </Box>
        <IconButton aria-label="Dismiss next steps" onClick={dismiss} size="small">
          <CloseRounded fontSize="small" />
        </IconButton>
      </Stack>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, mt: 1.5, p: 0 }}>
        {STEPS.map((step) => {
          const ticked = state[step.key];
          return (
            <Box
              component="li"
              key={step.key}
              data-done={ticked}
              sx={{
                display: 'flex',
                flexWrap: { xs: 'wrap', sm: 'nowrap' },
                alignItems: 'center',
                gap: 1.5,
                py: 1.25,
                borderTop: 1,
                borderColor: 'divider',
              }}
            >
              {ticked ? (
                <CheckCircleRounded color="success" aria-label="Done" />
              ) : (
                <RadioButtonUncheckedRounded color="disabled" aria-label="To do" />
              )}
              {/* On a phone the text takes the row beside the mark and the button wraps under it;
                  with a zero basis the text shrank to a narrow column beside the button instead. */}
              <Box sx={{ flex: { xs: '1 1 calc(100% - 36px)', sm: '1 1 0' }, minWidth: 0 }}>
                <Typography
                  variant="subtitle2"
                  component="p"
                  sx={ticked ? { textDecoration: 'line-through', color: 'text.secondary' } : undefined}
                >
                  {step.title}
                </Typography>
                {!ticked && (
                  <Typography variant="body2" color="textSecondary">
                    {step.text}
                  </Typography>
                )}
              </Box>
              {!ticked && (
                <Button
                  variant="outlined"
                  size="small"
                  sx={{ ml: { xs: 4.5, sm: 0 }, flexShrink: 0 }}
                  onClick={() => (target ? onOpenBot(target.id, step.tab) : onAddBot())}
                >
                  {target ? step.action : 'Add a bot first'}
                </Button>
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
