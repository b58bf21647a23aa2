import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../layout/brand';
import { LegalPage, type LegalSection } from './LegalPage';
import { FREE_CREDITS, PRICE_LIST } from '../../layout/prices';

const mail = <Link href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Link>;

const sections: LegalSection[] = [
  {
    heading: 'The agreement',
    body: [
      'These terms are an agreement between you and Botsmith for the use of the Botsmith website, dashboard, chat widget and API ("the Service"). By creating an account you accept them. If you use Botsmith for a company, you accept them on its behalf and confirm that you may do so.',
    ],
  },
  {
    heading: 'Your account',
    body: [
      'You need a verified e-mail address and a valid payment method to use the dashboard. Keep your password secret: you are responsible for what happens under your account. Tell us at once if you believe someone else has used it.',
    ],
  },
  {
    heading: 'Prices and free credits',
    body: [
      `You pay for each message your bots answer. The price depends on the bot’s model: ${PRICE_LIST}. There is no monthly fee or minimum. Messages that fail or that we refuse (for example because a budget or rate limit was reached) are not charged.`,
      `Every new account receives ${FREE_CREDITS} in free credits, which are used before anything is billed. Credits have no cash value, cannot be transferred and are not refunded when an account is closed.`,
      'We may change prices with at least 30 days’ notice by e-mail; the new prices apply only to messages answered after that date.',
    ],
  },
  {
    heading: 'Billing',
    body: [
      'Usage is counted in billing months that start on the 3rd of each month at 00:00 UTC. At the end of each month your usage beyond your free credits is charged to your card through Stripe, our payment provider. Stripe’s processing can shift a few late messages into the next bill; nothing is ever charged twice.',
      'If a payment fails, your bots stop answering and the dashboard asks you to update your card. Service resumes as soon as the payment succeeds. Amounts are in US dollars and exclude any taxes that apply.',
    ],
  },
  {
    heading: 'Budgets and limits',
    body: [
      'You can give each bot a monthly maximum budget. When a bot reaches it, the bot hides itself until the next billing month or until you raise the limit. We also apply rate limits per bot and per visitor, and one visitor cannot send several messages at once. These protections reduce the risk of abuse but do not make us liable for usage your bots legitimately answered.',
    ],
  },
  {
    heading: 'Your bots and content',
    body: [
      'You own the content you put into Botsmith: prompts, documents, icons and settings. You give us the permission we need to host it, process it and send it to the AI model provider to answer your visitors. You confirm that you have the right to use it.',
      'You are responsible for how your bots are used on your websites, including telling your visitors that they are chatting with an AI and how their messages are handled, for example in your own privacy policy.',
    ],
  },
  {
    heading: 'Acceptable use',
    body: [
      'Do not use Botsmith to break the law, to deceive or harm people, to collect sensitive data (such as card numbers or health records) through a chat, to send spam, to infringe others’ rights, to attack or overload the Service, or to get around its limits or billing. You must also follow the usage policies of the AI model providers we use. We may suspend a bot or an account that breaks these rules; where we can, we will warn you first.',
    ],
  },
  {
    heading: 'AI answers',
    body: [
      'Bots generate answers with AI models. Answers can be incomplete or wrong, so do not rely on them for legal, medical, financial or other professional advice, and review what your bots say about your business.',
    ],
  },
  {
    heading: 'Availability and changes',
    body: [
      'We work to keep Botsmith available and fast, but we do not guarantee that it will be uninterrupted or error-free. We may improve or change features; if we remove something you rely on, we will tell you in advance. When an AI model is retired by its provider, we may route its price tier to a comparable model.',
    ],
  },
  {
    heading: 'Ending the agreement',
    body: [
      'You can delete your account at any time from the Settings window of the dashboard. Deleting it removes your bots and their files at once; usage answered in the current month is still charged on the 3rd. We may end these terms with 30 days’ notice, or at once for a serious breach.',
    ],
  },
  {
    heading: 'Liability',
    body: [
      'To the extent the law allows, Botsmith is not liable for indirect or consequential losses, lost profits or lost data, and our total liability for any claim is limited to the amounts you paid us in the three months before the claim. Nothing in these terms limits liability that cannot be limited by law.',
    ],
  },
  {
    heading: 'Contact',
    body: [
      <>
        Questions about these terms or your bill: {mail}. How we handle personal data is explained in our{' '}
        <Link component={RouterLink} to="/privacy-policy">
          Privacy Policy
        </Link>
        .
      </>,
    ],
  },
];

/** /terms-of-service */
export function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      lastUpdated="22 November 2026"
      intro="Plain terms for a pay-per-message service: what you pay, when you pay it, and what we both promise."
      sections={sections}
    />
  );
}
