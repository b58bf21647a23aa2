import { useSnackbar } from 'notistack';
import { botsApi } from '../../api';
import type { BotSummary } from '../../api/types';
import { track } from '../../analytics/analytics';
import { NameDialog } from '../../components/NameDialog';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from '../../api/serverMessage';

export interface AddBotDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (bot: BotSummary) => void;
}

/** The Add New Bot modal: one field, Bot Name; Create Bot and Cancel. */
export function AddBotDialog({ open, onClose, onCreated }: AddBotDialogProps) {
  const { enqueueSnackbar } = useSnackbar();

  const create = async (name: string) => {
    try {
      const { bot } = await botsApi.create(name.trim());
      track('Bot Created', { bot_id: bot.id, bot_name: bot.name });
      enqueueSnackbar(`${bot.name} created successfully!`, { variant: 'success' });
      onCreated(bot);
    } catch (failure) {
      enqueueSnackbar('Error creating bot.', { variant: 'error' });
      throw failure;
    }
  };

  return (
    <NameDialog
      open={open}
      onClose={onClose}
      titleId="add-bot-title"
      title="Add New Bot"
      description="Give your bot a name. You can style it, teach it and deploy it next. It starts with a monthly budget, which you can change in its Usage tab."
      label="Bot Name"
      maxLength={BOT_LIMITS.nameMax}
      requiredMessage="Bot name is required."
      submitLabel="Create Bot"
      submittingLabel="Creating…"
      onSubmit={create}
      errorText={(failure) => serverMessage(failure) ?? 'Error creating bot.'}
    />
  );
}
