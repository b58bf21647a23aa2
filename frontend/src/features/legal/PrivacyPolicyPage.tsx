import Link from '@mui/material/Link';
import { SUPPORT_EMAIL } from '../../layout/brand';
import { LegalPage, type LegalSection } from './LegalPage';

const mail = <Link href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Link>;

const sections: LegalSection[] = [
  {
    heading: 'Who we are',
    body: [
      'Botsmith provides a hosted service for building AI chatbots and embedding them on websites ("the Service"). This policy explains what personal data we handle when you visit our website, create an account, or chat with a bot built on Botsmith, and what choices you have.',
      'For account holders ("owners") and visitors to our own website, Botsmith is the data controller. For the conversations visitors have with an owner’s bot on the owner’s website, the owner decides why the bot is used and is the controller; we process those conversations on the owner’s behalf.',
    ],
  },
  {
    heading: 'What we collect',
    body: [
      <ul>
        <li>
          <strong>Account data:</strong> your e-mail address, a salted hash of your password (never the password
          itself), when you signed up, verified your e-mail and last signed in.
        </li>
        <li>
          <strong>Billing data:</strong> your customer and subscription identifiers at Stripe, whether your last payment
          succeeded, your free-credit balance and your usage. Card details are entered on Stripe’s pages and stored by
          Stripe; we never see or store your full card number.
        </li>
        <li>
          <strong>Bot content:</strong> what you configure for each bot (name, greeting, prompt, styling, allowed
          domain, budget) and any PDF document or icon you upload.
        </li>
        <li>
          <strong>Chat logs:</strong> the messages visitors send to your bots and the bots’ answers, the time, the model
          used, the number of tokens, the price charged, and the address of the page the chat happened on.
        </li>
        <li>
          <strong>Technical data:</strong> IP addresses and request metadata in our server logs, used for security, rate
          limiting and abuse prevention.
        </li>
      </ul>,
    ],
  },
  {
    heading: 'What a bot stores about its visitors',
    body: [
      'When a visitor chats with a bot, we store the messages of the conversation (the visitor’s and the bot’s), any rating the visitor gives an answer, the address of the page the chat happened on, and an anonymous visitor identifier that our server makes up at random, so that the conversation can continue. We do not store a visitor’s name or e-mail address unless the visitor writes it in a message, and we never store a visitor’s whole IP address with a conversation. To stop abuse, we count a visitor’s requests for a minute under a one-way keyed code of their network (their IPv4 address, or the first half of an IPv6 address), never under the address itself.',
      'Each owner chooses how long their bots’ conversations are kept: 30, 90 or 365 days after the conversation’s last message, or forever; 365 days unless the owner chooses otherwise. Every day we delete the conversations that are older, with their messages. The usage records we bill from hold no message text and are kept.',
    ],
  },
  {
    heading: 'How we use it',
    body: [
      'We use this data to run the Service: to sign you in, to answer chat messages, to count and bill usage, to enforce the budgets and rate limits you and we set, to send account e-mails (verification, password reset, billing notices), to keep the Service secure, and to answer your support requests. We do not sell personal data, and we do not use your bots’ conversations to build advertising profiles.',
    ],
  },
  {
    heading: 'Who we share it with',
    body: [
      'We share data only with the service providers we need to run Botsmith, under contracts that limit their use of it to providing their service to us:',
      <ul>
        <li>
          <strong>Stripe</strong>, to collect payments and report your monthly usage.
        </li>
        <li>
          <strong>OpenAI</strong> (or another model provider we route a model to), which receives the conversation and
          the bot’s prompt and reference text needed to generate each answer.
        </li>
        <li>Our hosting, database, file storage and e-mail delivery providers.</li>
      </ul>,
      'We may also disclose data when the law requires it, or to protect the rights and safety of our users and the public.',
    ],
  },
  {
    heading: 'Cookies and local storage',
    body: [
      'Botsmith sets one cookie: a session cookie that keeps you signed in. It is HttpOnly, holds only a random session identifier, and ends when you sign out. We do not use advertising or cross-site tracking cookies.',
      'When product analytics is switched on, our website and dashboard record which pages and buttons are used (for example, a click on "Sign Up") with Mixpanel; its identifier is kept in your browser’s local storage, not in a cookie. The chat widget may keep the current conversation in the visitor’s browser storage so that it survives a page reload.',
    ],
  },
  {
    heading: 'How long we keep it',
    body: [
      'We keep your account, bots and documents for as long as your account exists, and your bots’ chat logs for as long as the retention you chose in Settings > Privacy (365 days after a conversation’s last message unless you choose 30 days, 90 days or forever), so that you can see your usage and download your logs. Server logs are kept for a short period for security purposes.',
      'When you delete your account, we delete your bots, uploaded files, documents and sessions. We keep the records of your billable usage and payments for as long as tax and accounting law requires; your final usage for the month is still charged on the 3rd.',
    ],
  },
  {
    heading: 'Your rights',
    body: [
      <>
        You can see and change your bots at any time, download your chat logs from the dashboard, and delete your
        account from the Settings window. Depending on where you live, you may also have the right to access, correct,
        export or erase your personal data, or to object to or restrict how we use it. Write to {mail} and we will
        answer within 30 days. If you are a visitor of a website that uses a Botsmith bot, please contact that website’s
        owner first; we will help them answer your request.
      </>,
    ],
  },
  {
    heading: 'Security',
    body: [
      'Passwords are stored only as strong one-way hashes, traffic is encrypted in transit, sessions are protected against cross-site requests, and each owner can only ever reach their own bots and data. No system is perfectly secure; if we learn of a breach affecting your data, we will tell you without undue delay.',
    ],
  },
  {
    heading: 'Children',
    body: [
      'Botsmith is a business tool and is not directed at children under 16. We do not knowingly collect their data.',
    ],
  },
  {
    heading: 'Changes and contact',
    body: [
      <>
        If we change this policy in a way that matters, we will e-mail account holders before the change takes effect.
        Questions about privacy: {mail}.
      </>,
    ],
  },
];

/** /privacy-policy */
export function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      lastUpdated="25 November 2026"
      intro="We collect as little as we need to run your bots and bill you fairly, and we never sell it."
      sections={sections}
    />
  );
}
