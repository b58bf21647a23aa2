import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BotResponse } from '../../api/types';
import { api } from '../../test/apiMock';
import { answerEditBotDialogLoads, openTab, renderEditBotDialog } from '../../test/editBotDialog';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { refusal, stubScreen } from '../../test/stubs';
import { EditBotDialog } from './EditBotDialog';
import { PREVIEW_EVENT } from './useWidgetPreview';

configure({ asyncUtilTimeout: 5000 });
// The Styling tab renders dozens of fields; the shared test machine is slow.
vi.setConfig({ testTimeout: 30_000 });

vi.mock('../../api', () => import('../../test/apiMock').then((m) => m.api));
vi.mock('../usage/BotUsageTab', () => ({
  BotUsageTab: ({ botId }: { botId: number }) => <p>Usage panel of bot {botId}</p>,
}));

const serverError = (status = 500, message = 'boom') => refusal(status, message, 'INTERNAL_ERROR');

const renderDialog = (bot?: BotResponse, handlers: { onBotChanged?: () => void; onBotDeleted?: () => void } = {}) =>
  renderEditBotDialog(bot, { categories: [{ id: 4, name: 'Acme' }], ...handlers });

/** The reference-document upload (docs/product.md#edit-bot-modal): one of the sources, on the Knowledge tab (issue 27). */
async function openReferenceDocument() {
  await openTab('Knowledge');
  await userEvent.click(await screen.findByRole('button', { name: 'Add' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: /Reference document/ }));
}

function previewScripts(): HTMLScriptElement[] {
  return Array.from(document.querySelectorAll<HTMLScriptElement>('script[data-preview="true"]'));
}

describe('EditBotDialog', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    answerEditBotDialogLoads();
    stubScreen('desktop');
  });
  afterEach(() => {
    document.querySelectorAll('script[data-preview], botsmith-widget').forEach((node) => node.remove());
  });

  it('has its nine tabs, Knowledge after Prompting, Leads after Deploy, Actions before Delete, and opens on Details', async () => {
    renderDialog();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Details',
      'Styling',
      'Prompting',
      'Knowledge',
      'Usage',
      'Deploy',
      'Leads',
      'Actions',
      'Delete',
    ]);
    expect(await screen.findByLabelText(/^Name/)).toHaveValue('Support Bot');
  });

  it("shows 'Error fetching bot details.' when the bot cannot be loaded", async () => {
    api.botsApi.get.mockImplementation(() => serverError());
    renderAtDashboard(
      <EditBotDialog botId={9} categories={[]} onClose={vi.fn()} onBotChanged={vi.fn()} onBotDeleted={vi.fn()} />,
    );
    expect(await screen.findByText('Error fetching bot details.')).toBeInTheDocument();
  });

  describe('Details', () => {
    it('says what the domain lock does and what it cannot do, beside the field', async () => {
      renderDialog();
      await screen.findByLabelText('Allowed domain');
      expect(
        screen.getByText(
          /The domain lock stops other websites from showing your bot in their visitors. browsers\. It cannot stop a script/,
        ),
      ).toBeInTheDocument();
    });

    it("saves name, greeting, model, category and domain with 'Bot details updated successfully!'", async () => {
      const { onBotChanged } = renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot({ ...changes }) }),
      );
      fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: '  Concierge ' } });
      fireEvent.change(screen.getByLabelText('Custom greeting'), { target: { value: 'Welcome!' } });
      await userEvent.click(screen.getByRole('combobox', { name: /Model/ }));
      await userEvent.click(await screen.findByRole('option', { name: /GPT-4 Omni/ }));
      await userEvent.click(screen.getByRole('combobox', { name: /Category/ }));
      await userEvent.click(await screen.findByRole('option', { name: 'Acme' }));
      fireEvent.change(screen.getByLabelText('Allowed domain'), { target: { value: 'shop.example.com' } });
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));

      expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(7, {
        name: 'Concierge',
        customGreeting: 'Welcome!',
        starterQuestions: [],
        widgetLanguage: 'auto',
        model: 'gpt-4o',
        showModelLabel: false,
        categoryId: 4,
        allowedDomain: 'shop.example.com',
      });
      expect(onBotChanged).toHaveBeenCalledWith(expect.objectContaining({ name: 'Concierge', categoryId: 4 }));
    });

    it("refuses an empty name with 'Bot name is required.' and a domain with a protocol, sending nothing", async () => {
      renderDialog();
      fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: '   ' } });
      fireEvent.change(screen.getByLabelText('Allowed domain'), { target: { value: 'https://shop.example.com/' } });
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
      expect(screen.getByText('Bot name is required.')).toBeInTheDocument();
      expect(screen.getByText(/without http:\/\//)).toBeInTheDocument();
      expect(api.botsApi.update).not.toHaveBeenCalled();
    });

    it('adds up to four starter questions and saves them trimmed, blank rows left out', async () => {
      renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot({ ...changes }) }),
      );
      const add = await screen.findByRole('button', { name: 'Add a starter question' });
      for (let i = 0; i < 4; i += 1) fireEvent.click(add);
      expect(add).toBeDisabled();
      fireEvent.change(screen.getByLabelText('Starter question 1'), { target: { value: '  Do you deliver?  ' } });
      fireEvent.change(screen.getByLabelText('Starter question 3'), { target: { value: 'When do you open?' } });
      expect(screen.getByLabelText('Starter question 1')).toHaveAttribute('maxLength', '80');
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));

      expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(
        7,
        expect.objectContaining({ starterQuestions: ['Do you deliver?', 'When do you open?'] }),
      );
      // The form shows what was saved: two rows, and room to add more.
      expect(screen.queryByLabelText('Starter question 3')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Add a starter question' })).toBeEnabled();
    });

    it('fixes the widget language (each named in its own language) or leaves it automatic', async () => {
      renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot({ ...changes }) }),
      );
      const select = await screen.findByRole('combobox', { name: /Widget language/ });
      expect(select).toHaveTextContent("Automatic (the visitor's browser language)");
      await userEvent.click(select);
      const options = await screen.findAllByRole('option');
      expect(options.map((option) => option.textContent)).toEqual([
        "Automatic (the visitor's browser language)",
        'English',
        'Español',
        'Français',
        'Deutsch',
        'Português',
        'Italiano',
        'Nederlands',
        '日本語',
      ]);
      await userEvent.click(screen.getByRole('option', { name: 'Deutsch' }));
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
      expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(7, expect.objectContaining({ widgetLanguage: 'de' }));
    });

    it("hides the model's name from visitors until the owner turns it on, and saves the switch", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot({ ...changes }) }),
      );
      const toggle = await screen.findByRole('switch', { name: "Show the model's name to visitors" });
      expect(toggle).not.toBeChecked();
      await userEvent.click(toggle);
      expect(toggle).toBeChecked();
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
      expect(await screen.findByText('Bot details updated successfully!')).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(7, expect.objectContaining({ showModelLabel: true }));
    });

    it('removes a saved starter question and refuses two that are the same, sending nothing', async () => {
      renderDialog(makeBot({ starterQuestions: ['Do you deliver?', 'When do you open?'] }));
      expect(await screen.findByLabelText('Starter question 2')).toHaveValue('When do you open?');
      await userEvent.click(screen.getByRole('button', { name: 'Remove starter question 1' }));
      expect(screen.getByLabelText('Starter question 1')).toHaveValue('When do you open?');
      await userEvent.click(screen.getByRole('button', { name: 'Add a starter question' }));
      fireEvent.change(screen.getByLabelText('Starter question 2'), { target: { value: 'when do you OPEN? ' } });
      await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
      expect(screen.getByText('Each starter question must be different.')).toBeInTheDocument();
      expect(api.botsApi.update).not.toHaveBeenCalled();
    });

    it("toasts 'Error updating bot details.' and shows the server's reason", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation(() => serverError(400, 'Invalid allowedDomain: use a bare host name.'));
      await userEvent.click(await screen.findByRole('button', { name: 'Save Details' }));
      expect(await screen.findByText('Error updating bot details.')).toBeInTheDocument();
      expect(screen.getByText('Invalid allowedDomain: use a bare host name.')).toBeInTheDocument();
    });
  });

  describe('Styling', () => {
    it('injects the real widget as a preview while the tab is open and removes it on leaving the tab', async () => {
      renderDialog();
      await openTab('Styling');
      await waitFor(() => expect(previewScripts()).toHaveLength(1));
      const [script] = previewScripts();
      expect(script.getAttribute('src')).toBe('/widget.js');
      expect(script.dataset.botId).toBe('7');

      await openTab('Prompting');
      expect(previewScripts()).toHaveLength(0);
    });

    it('removes the preview when the modal closes', async () => {
      const { unmount } = renderDialog();
      await openTab('Styling');
      await waitFor(() => expect(previewScripts()).toHaveLength(1));
      unmount();
      expect(previewScripts()).toHaveLength(0);
    });

    it('sends unsaved colours to the preview as they change, and again when the widget appears', async () => {
      const events: Array<Record<string, unknown>> = [];
      const listener = (event: Event) => events.push((event as CustomEvent).detail as Record<string, unknown>);
      window.addEventListener(PREVIEW_EVENT, listener);
      try {
        renderDialog();
        await openTab('Styling');
        // A colour is solid until the owner asks for a gradient: the picker sets both stops.
        fireEvent.change(await screen.findByLabelText('Bubble colour picker'), {
          target: { value: '#ff0000' },
        });
        await waitFor(() =>
          expect(events.at(-1)).toMatchObject({
            botId: 7,
            bubbleColor: 'linear-gradient(to right, #ff0000, #ff0000)',
            name: 'Support Bot',
            // The widget paints the theme the dashboard computes, as the API does for the face.
            theme: expect.objectContaining({
              '--bubble': 'linear-gradient(to right, #ff0000, #ff0000)',
              '--bubble-c': '#ff0000',
            }),
          }),
        );
        const before = events.length;
        document.body.appendChild(document.createElement('botsmith-widget'));
        await waitFor(() => expect(events.length).toBeGreaterThan(before));
        expect(events.at(-1)).toMatchObject({ bubbleColor: 'linear-gradient(to right, #ff0000, #ff0000)' });
      } finally {
        window.removeEventListener(PREVIEW_EVENT, listener);
      }
    });

    it("saves every styling field with 'Styling updated successfully!'", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot(changes) }),
      );
      await openTab('Styling');
      const group = await screen.findByRole('group', { name: 'Banner colour' });
      await userEvent.click(within(group).getByRole('checkbox', { name: 'Use a gradient' }));
      await userEvent.click(within(group).getByRole('combobox'));
      await userEvent.click(await screen.findByRole('option', { name: 'Diagonal' }));
      fireEvent.change(within(group).getByLabelText('Banner colour end colour'), { target: { value: '#123456' } });
      await userEvent.click(screen.getByRole('button', { name: 'Left' }));
      await userEvent.click(screen.getByRole('combobox', { name: /Animation/ }));
      await userEvent.click(await screen.findByRole('option', { name: 'Expand' }));
      await userEvent.click(screen.getByRole('button', { name: 'Save Styling' }));

      expect(await screen.findByText('Styling updated successfully!')).toBeInTheDocument();
      const [, sent] = api.botsApi.update.mock.calls[0] as [number, Record<string, unknown>];
      expect(Object.keys(sent).sort()).toEqual(
        [
          'assistantBubbleColor',
          'assistantBubbleTextColor',
          'animation',
          'bannerColor',
          'bannerDisclaimer',
          'bannerTextColor',
          'bubbleBorderRadius',
          'bubbleColor',
          'bubbleIcon',
          'bubbleTextColor',
          'chatWindowBorderRadius',
          'placeholderText',
          'placeholderTextColor',
          'sendArrowColor',
          'sendButtonColor',
          'widgetBackgroundColor',
          'widgetBubbleColor',
          'widgetPosition',
        ].sort(),
      );
      expect(sent).toMatchObject({
        bannerColor: 'linear-gradient(135deg, #2ecc71, #123456)',
        widgetPosition: 'left',
        animation: 'blowup',
      });
    });

    it("toasts 'Error updating styling.' when saving fails, and blocks an invalid radius", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation(() => serverError());
      await openTab('Styling');
      const radius = await screen.findByLabelText('Bubble radius');
      fireEvent.change(radius, { target: { value: '12em' } });
      expect(screen.getByRole('button', { name: 'Save Styling' })).toBeDisabled();
      fireEvent.change(radius, { target: { value: '12px' } });
      await userEvent.click(screen.getByRole('button', { name: 'Save Styling' }));
      expect(await screen.findByText('Error updating styling.')).toBeInTheDocument();
    });

    it("says 'Image is too big. Keep under 500KB in size.' for an icon of 512000 bytes and uploads nothing", async () => {
      renderDialog();
      await openTab('Styling');
      const big = new File([new Uint8Array(512_000)], 'logo.png', { type: 'image/png' });
      await userEvent.upload(await screen.findByTestId('icon-input'), big);
      expect(await screen.findByText('Image is too big. Keep under 500KB in size.')).toBeInTheDocument();
      expect(api.uploadsApi.uploadIcon).not.toHaveBeenCalled();
    });

    it('uploads an icon under the limit and shows it; a failure toasts "Icon upload failed."', async () => {
      const { onBotChanged } = renderDialog();
      api.uploadsApi.uploadIcon.mockResolvedValueOnce({ fileUrl: 'http://localhost/uploads/icons/a.png' });
      await openTab('Styling');
      const input = await screen.findByTestId('icon-input');
      await userEvent.upload(input, new File([new Uint8Array(511_999)], 'logo.png', { type: 'image/png' }));
      await waitFor(() =>
        expect(onBotChanged).toHaveBeenCalledWith(
          expect.objectContaining({ bubbleIcon: 'http://localhost/uploads/icons/a.png' }),
        ),
      );
      expect(screen.getByRole('button', { name: 'Use default icon' })).toBeInTheDocument();

      api.uploadsApi.uploadIcon.mockImplementationOnce(() =>
        serverError(
          415,
          'This file is not a supported image. Upload a PNG, JPEG, GIF or WebP image (SVG is not accepted).',
        ),
      );
      await userEvent.upload(input, new File(['<svg/>'], 'x.png', { type: 'image/png' }));
      expect(await screen.findByText('Icon upload failed.')).toBeInTheDocument();
      expect(screen.getByText(/SVG is not accepted/)).toBeInTheDocument();
    });
  });

  describe('Prompting', () => {
    it("ignores max tokens above 2000 and saves with 'Prompting settings saved!'", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation((_id: number, changes: Partial<BotResponse>) =>
        Promise.resolve({ bot: makeBot(changes) }),
      );
      await openTab('Prompting');
      fireEvent.change(await screen.findByLabelText('Prompt'), { target: { value: 'Answer briefly.' } });
      const tokens = screen.getByLabelText('Max tokens');
      await userEvent.clear(tokens);
      await userEvent.type(tokens, '2500');
      expect(tokens).toHaveValue('250');
      const temperature = screen.getByLabelText('Temperature');
      await userEvent.clear(temperature);
      await userEvent.type(temperature, '2.5');
      expect(temperature).toHaveValue('2.');
      await userEvent.clear(temperature);
      await userEvent.type(temperature, '1.2');
      await userEvent.click(screen.getByRole('button', { name: 'Save Prompting' }));

      expect(await screen.findByText('Prompting settings saved!')).toBeInTheDocument();
      expect(api.botsApi.update).toHaveBeenCalledWith(7, {
        prompt: 'Answer briefly.',
        maxTokens: 250,
        temperature: 1.2,
      });
    });

    it('says plainly that the prompt is not a secret store', async () => {
      renderDialog();
      await openTab('Prompting');
      expect(
        await screen.findByText(
          'The prompt is not a secret store: visitors can coax a model into repeating it. Never put passwords, API keys or anything else you would not show a visitor in it.',
        ),
      ).toBeInTheDocument();
    });

    it("toasts 'Error saving prompting settings.' when saving fails", async () => {
      renderDialog();
      api.botsApi.update.mockImplementation(() => serverError());
      await openTab('Prompting');
      await userEvent.click(await screen.findByRole('button', { name: 'Save Prompting' }));
      expect(await screen.findByText('Error saving prompting settings.')).toBeInTheDocument();
    });

    it('shows the drop zone’s own messages for a wrong type, a file too large and too many files', async () => {
      const user = userEvent.setup({ applyAccept: false });
      renderDialog();
      await openReferenceDocument();
      const input = await screen.findByTestId('document-input');
      await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
      expect(await screen.findByText('File type must be one of application/pdf, .pdf')).toBeInTheDocument();

      const huge = new File(['%PDF'], 'big.pdf', { type: 'application/pdf' });
      Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
      await user.upload(input, huge);
      expect(await screen.findByText('File is larger than 10485760 bytes')).toBeInTheDocument();

      fireEvent.drop(input.parentElement!, {
        dataTransfer: {
          files: [
            new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }),
            new File(['%PDF'], 'b.pdf', { type: 'application/pdf' }),
          ],
          types: ['Files'],
        },
      });
      expect(await screen.findByText('Too many files')).toBeInTheDocument();
      expect(api.uploadsApi.uploadDocument).not.toHaveBeenCalled();
    });

    it("uploads a PDF with progress and toasts 'Document uploaded successfully!'", async () => {
      const { onBotChanged } = renderDialog();
      let report: (fraction: number) => void = () => undefined;
      let finish: (value: unknown) => void = () => undefined;
      api.uploadsApi.uploadDocument.mockImplementation(
        (_id: number, _file: File, options: { onProgress: (fraction: number) => void }) => {
          report = options.onProgress;
          return new Promise((resolve) => (finish = resolve));
        },
      );
      await openReferenceDocument();
      await userEvent.upload(
        await screen.findByTestId('document-input'),
        new File(['%PDF-1.7'], 'handbook.pdf', { type: 'application/pdf' }),
      );
      report(0.42);
      expect(await screen.findByText('Uploading… 42%')).toBeInTheDocument();
      report(1);
      expect(await screen.findByText('Reading the document…')).toBeInTheDocument();
      finish({ document: { originalName: 'handbook.pdf', filePath: '/uploads/documents/x.pdf' } });

      expect(await screen.findByText('Document uploaded successfully!')).toBeInTheDocument();
      // The upload dialog closes: the document is now the source marked "Reference document".
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reference document' })).toBeNull());
      expect(onBotChanged).toHaveBeenCalledWith(
        expect.objectContaining({ document: { originalName: 'handbook.pdf', filePath: '/uploads/documents/x.pdf' } }),
      );
      // The reference document is one of the knowledge sources: the list is read again.
      await waitFor(() => expect(api.knowledgeApi.list).toHaveBeenCalledTimes(2));
    });

    it("toasts 'Document upload failed.' and shows the server's reason", async () => {
      renderDialog();
      api.uploadsApi.uploadDocument.mockImplementation(() =>
        serverError(422, 'This PDF has no extractable text. Please upload a text-based PDF.'),
      );
      await openReferenceDocument();
      await userEvent.upload(
        await screen.findByTestId('document-input'),
        new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' }),
      );
      expect(await screen.findByText('Document upload failed.')).toBeInTheDocument();
      expect(screen.getByText('This PDF has no extractable text. Please upload a text-based PDF.')).toBeInTheDocument();
    });
  });

  it('renders the usage engineer’s BotUsageTab on Usage', async () => {
    renderDialog();
    await openTab('Usage');
    expect(await screen.findByText('Usage panel of bot 7')).toBeInTheDocument();
  });

  describe('Deploy', () => {
    // Issue 27: the snippet is there at once, no "Generate Code" step.
    it('shows the snippet at once and copies it', async () => {
      const user = userEvent.setup();
      const writeText = vi.spyOn(navigator.clipboard, 'writeText');
      renderDialog();
      await openTab('Deploy');
      expect(await screen.findByRole('button', { name: 'Copy to Clipboard' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Generate Code' })).not.toBeInTheDocument();
      const snippet = `<script src="${window.location.origin}/widget.js" data-bot-id="7" async></script>`;
      expect(screen.getByLabelText('Embed snippet')).toHaveTextContent(snippet);
      await user.click(screen.getByRole('button', { name: 'Copy to Clipboard' }));
      expect(writeText).toHaveBeenCalledWith(snippet);
      expect(await screen.findByText('Widget snippet copied to clipboard!')).toBeInTheDocument();
    });

    it("shows how the owner's page opens the chat or asks a question through window.Botsmith", async () => {
      renderDialog();
      await openTab('Deploy');
      expect(await screen.findByRole('heading', { name: 'Open the chat from your own buttons' })).toBeInTheDocument();
      const example = screen.getByLabelText('Host page example');
      expect(example).toHaveTextContent('onclick="window.Botsmith?.open()"');
      expect(example).toHaveTextContent("window.Botsmith?.send('Where is my order?')");
    });

    it("toasts 'Failed to copy snippet.' when the clipboard refuses", async () => {
      const user = userEvent.setup();
      vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
      renderDialog();
      await openTab('Deploy');
      await user.click(await screen.findByRole('button', { name: 'Copy to Clipboard' }));
      expect(await screen.findByText('Failed to copy snippet.')).toBeInTheDocument();
    });
  });

  describe('Deploy: API key', () => {
    it('shows the key; Rotate key asks first, Cancel rotates nothing', async () => {
      renderDialog(makeBot({ apiKey: 'old-key-'.padEnd(43, 'x') }));
      await openTab('Deploy');
      // Masked until shown (issue 27).
      expect(await screen.findByLabelText('API key')).not.toHaveValue('old-key-'.padEnd(43, 'x'));
      await userEvent.click(screen.getByRole('button', { name: 'Show API key' }));
      expect(screen.getByLabelText('API key')).toHaveValue('old-key-'.padEnd(43, 'x'));
      await userEvent.click(screen.getByRole('button', { name: 'Rotate key' }));
      expect(screen.getByText(/The current key stops working at once/)).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.getByRole('button', { name: 'Rotate key' })).toBeInTheDocument();
      expect(api.botsApi.rotateApiKey).not.toHaveBeenCalled();
    });

    it('rotates on confirmation, shows the new key and tells the parent', async () => {
      const bot = makeBot({ apiKey: 'old-key-'.padEnd(43, 'x') });
      const { onBotChanged } = renderDialog(bot);
      const fresh = 'new-key-'.padEnd(43, 'y');
      api.botsApi.rotateApiKey.mockResolvedValue({ apiKey: fresh });
      await openTab('Deploy');
      await userEvent.click(await screen.findByRole('button', { name: 'Rotate key' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, Rotate Key' }));
      expect(await screen.findByText('API key rotated. The old key no longer works.')).toBeInTheDocument();
      expect(api.botsApi.rotateApiKey).toHaveBeenCalledWith(7);
      expect(api.botsApi.rotateApiKey).toHaveBeenCalledTimes(1);
      expect(screen.getByLabelText('API key')).toHaveValue(`${'•'.repeat(24)}yyyy`);
      await userEvent.click(screen.getByRole('button', { name: 'Show API key' }));
      expect(screen.getByLabelText('API key')).toHaveValue(fresh);
      expect(onBotChanged).toHaveBeenCalledWith({ ...bot, apiKey: fresh });
      expect(screen.getByRole('button', { name: 'Rotate key' })).toBeInTheDocument();
    });

    it('says Botsmith is briefly unavailable when the rotation meets an outage (503)', async () => {
      const sentence = 'Botsmith is briefly unavailable. Please try again in a moment.';
      renderDialog();
      api.botsApi.rotateApiKey.mockImplementation(() => serverError(503, sentence));
      await openTab('Deploy');
      await userEvent.click(await screen.findByRole('button', { name: 'Rotate key' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, Rotate Key' }));
      expect(await screen.findByText(sentence)).toBeInTheDocument();
    });

    it("shows the server's reason when rotation fails and keeps the old key", async () => {
      const { onBotChanged } = renderDialog(makeBot({ apiKey: 'old-key-'.padEnd(43, 'x') }));
      api.botsApi.rotateApiKey.mockImplementation(() => serverError(404, 'Bot not found.'));
      await openTab('Deploy');
      await userEvent.click(await screen.findByRole('button', { name: 'Rotate key' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, Rotate Key' }));
      expect(await screen.findByText('Bot not found.')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Show API key' }));
      expect(screen.getByLabelText('API key')).toHaveValue('old-key-'.padEnd(43, 'x'));
      expect(onBotChanged).not.toHaveBeenCalled();
    });
  });

  describe('Delete', () => {
    it("turns 'Delete' into 'Yes, Delete' and Cancel; Cancel deletes nothing", async () => {
      renderDialog();
      await openTab('Delete');
      await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
      expect(screen.getByRole('button', { name: 'Yes, Delete' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
      expect(api.botsApi.remove).not.toHaveBeenCalled();
    });

    it("deletes on 'Yes, Delete' with 'Bot successfully deleted!'", async () => {
      const { onBotDeleted } = renderDialog();
      api.botsApi.remove.mockResolvedValue({ message: 'Bot successfully deleted!' });
      await openTab('Delete');
      await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
      expect(await screen.findByText('Bot successfully deleted!')).toBeInTheDocument();
      expect(api.botsApi.remove).toHaveBeenCalledWith(7);
      expect(onBotDeleted).toHaveBeenCalledWith(7);
    });

    it("shows 'Error deleting bot.' when deletion fails", async () => {
      const { onBotDeleted } = renderDialog();
      api.botsApi.remove.mockImplementation(() => serverError());
      await openTab('Delete');
      await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
      await userEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
      expect(await screen.findByText('Error deleting bot.')).toBeInTheDocument();
      expect(onBotDeleted).not.toHaveBeenCalled();
    });
  });
});
