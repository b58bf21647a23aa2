/**
 * The landing page's copy and figures in one place (docs/product.md#landing-page); prices and
 * credits as in docs/product.md#model-tiers-and-prices and #free-credits.
 */
import type { CtaName } from '../../analytics/analytics';
import {
  BILLING_DAY,
  FREE_CREDITS,
  FREE_MESSAGES,
  HIGHER_PRICES,
  PRICE_STEP,
  STARTING_PRICE,
  STARTING_TIER_LABEL,
} from '../../layout/prices';

/** The bot the landing page embeds: the demo bot the backend seeds on first start. */
export { DEMO_BOT_ID } from '@botsmith/contract';

/** Below 768 px the navigation collapses into the hamburger menu. */
export const BELOW_768 = '(max-width: 767.98px)';
/** At 768 px or narrower the example cards fan out on a timer instead of on scroll. */
export const AT_MOST_768 = '(max-width: 768px)';

export const FAN_VISIBILITY_THRESHOLD = 0.3;
export const MOBILE_FAN_DELAY_MS = 1000;

export interface NavLink {
  label: string;
  href: string;
  /** An in-app route (rendered with the router) rather than an anchor on this page. */
  route?: boolean;
  cta?: CtaName;
}

export const navLinks: NavLink[] = [
  { label: 'What is Botsmith', href: '#info' },
  { label: 'How to Use', href: '#how-to' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Sign Up', href: '/signup', route: true, cta: 'Nav Sign Up' },
  { label: 'Sign In', href: '/login', route: true },
];

export interface Example {
  /** Card title. */
  name: string;
  /** The example bot shown in the picture. */
  botName: string;
  description: string;
  slug: string;
}

export const examples: Example[] = [
  {
    name: 'E-Commerce Assistant',
    botName: 'Shopwell Assistant',
    slug: 'ecommerce',
    description: 'A warm coral storefront bot that answers questions on sizes, stock, shipping and returns.',
  },
  {
    name: 'Personal Coach',
    botName: 'Coach Maya',
    slug: 'coach',
    description: 'A soft violet coach with a rounder window that plans workouts around a busy week.',
  },
  {
    name: 'Tech Blog',
    botName: 'DevNotes Bot',
    slug: 'tech-blog',
    description: 'A dark-mode bot with cyan accents that answers from the blog’s own articles.',
  },
  {
    name: 'Customer Support',
    botName: 'Acme Support',
    slug: 'support',
    description: 'The default Botsmith green: a friendly support desk that resolves log-in trouble.',
  },
  {
    name: 'HR Help Desk',
    botName: 'PeopleHub HR',
    slug: 'hr',
    description: 'A calm blue assistant that answers leave, benefits and payroll questions for staff.',
  },
];

/** Pixel size of the pictures in public/landing/ (written by e2e/capture-landing-media.mjs). */
export const exampleImage = {
  card: { width: 440, height: 629 },
  full: { width: 700, height: 1000 },
};

export const exampleCardSrc = (example: Example) => `/landing/${example.slug}-card.webp`;
/** 256 px for phones and 1x screens, 440 px for 2x screens; the card is 128 / 180 / 220 px wide. */
export const exampleCardSrcSet = (example: Example) =>
  `/landing/${example.slug}-card-sm.webp 256w, /landing/${example.slug}-card.webp 440w`;
export const EXAMPLE_CARD_SIZES = '(max-width: 599.95px) 128px, (max-width: 899.95px) 180px, 220px';
export const exampleFullSrc = (example: Example) => `/landing/${example.slug}-full.webp`;

export interface Step {
  title: string;
  text: string;
}

export const steps: Step[] = [
  {
    title: 'Add Your Bot',
    text: 'Sign up, get your free credits and create a bot with just a name. Pick its model, write its greeting, and file it in a category.',
  },
  {
    title: 'Style It Your Way',
    text: 'Gradients, bubble icon, corner radius, banner text, placeholder, animation and position. Every change shows in a live preview.',
  },
  {
    title: 'Perfect the Prompts',
    text: 'Tell the bot who it is and what it knows. Upload a PDF of your docs or FAQ for it to answer from, and tune reply length and creativity.',
  },
  {
    title: 'Track Usage & Monitor Performance',
    text: 'See messages, tokens and cost for the last 10 days, set a monthly budget per bot, and download every conversation as a spreadsheet.',
  },
];

export interface ComparisonRow {
  feature: string;
  botsmith: string;
  others: string;
  /** Whether each side has the feature, drawn as a check or a cross. */
  botsmithHas: boolean;
  othersHave: boolean;
}

export const comparison: ComparisonRow[] = [
  { feature: 'Price per message', botsmith: STARTING_PRICE, others: '5¢', botsmithHas: true, othersHave: true },
  {
    feature: 'AI provider bill',
    botsmith: 'Included',
    others: '$20+ separate bill',
    botsmithHas: true,
    othersHave: false,
  },
  {
    feature: 'Free credits',
    botsmith: `${FREE_CREDITS} to start`,
    others: 'None',
    botsmithHas: true,
    othersHave: false,
  },
  {
    feature: 'API key hosting',
    botsmith: 'We host the key',
    others: 'Bring your own',
    botsmithHas: true,
    othersHave: false,
  },
  {
    feature: 'Billing handled',
    botsmith: 'One monthly bill',
    others: 'You juggle two',
    botsmithHas: true,
    othersHave: false,
  },
];

export interface Faq {
  question: string;
  answer: string;
}

export const faqs: Faq[] = [
  {
    question: 'Do I need my own OpenAI API key?',
    answer:
      'No. Botsmith hosts the model key for you, so there is no separate account to open and no second bill to pay. You only pay us per answered message.',
  },
  {
    question: 'How much does it cost?',
    answer: `Messages start at ${STARTING_PRICE} each with ${STARTING_TIER_LABEL}. Larger models cost ${PRICE_STEP} more per step up in size: ${HIGHER_PRICES}. There is no monthly minimum, and every new account starts with ${FREE_CREDITS} in free credits (about ${FREE_MESSAGES} messages, depending on the model). Usage is billed monthly on the ${BILLING_DAY}.`,
  },
  {
    question: 'Can I stop a bot from running up my bill?',
    answer:
      'Yes. Give each bot a monthly max budget; when it is reached, the bot hides itself until the next billing month or until you raise the limit. Bots are also rate limited, and one visitor cannot send several messages at once.',
  },
  {
    question: 'How do I add a bot to my website?',
    answer:
      'Open the bot’s Deploy tab, generate the code and paste the one-line script tag into your site. It works anywhere you can add a script, and you can lock the bot to your own domain so no one else can embed it.',
  },
  {
    question: 'Can the bot answer from my own content?',
    answer:
      'Yes. Write a prompt describing what the bot should know and how it should sound, and upload a PDF such as a product guide, price list or FAQ. The bot uses it as reference when it answers.',
  },
  {
    question: 'Which AI models can I use?',
    answer:
      'GPT-3.5 Turbo, GPT-4 Turbo, GPT-4 Omni and GPT-4o Mini. Pick one per bot and switch at any time; the price of each message follows the bot’s model.',
  },
];

export interface FooterLink {
  label: string;
  href: string;
}

/** Use-case reading for visitors (external articles, opened in a new tab). */
export const useCaseLinks: FooterLink[] = [
  { label: 'Customer support bots', href: 'https://www.alvaria.com/glossary/what-is-customer-support-chatbot' },
  {
    label: 'E-commerce assistants',
    href: 'https://www.e-bcrp.org/archive/view_article?doi=10.22682/bcrp.2020.3.2.103',
  },
  {
    label: 'Bots for business and HR',
    href: 'https://www.oreilly.com/library/view/designing-bots/9781491974810/ch04.html',
  },
  { label: 'What is a chatbot?', href: 'https://en.wikipedia.org/wiki/Chatbot' },
];
