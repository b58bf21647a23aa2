import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { LandingPage } from './features/landing/LandingPage';
import { NotFoundPage } from './layout/NotFoundPage';
import { RootLayout } from './layout/RootLayout';

/*
 * The landing page is in the entry bundle because it is the page most visitors open first;
 * every other page is its own chunk, so the landing page never downloads dashboard code.
 */
const SignupPage = lazy(() => import('./features/auth/SignupPage').then((m) => ({ default: m.SignupPage })));
const LoginPage = lazy(() => import('./features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const ForgotPasswordPage = lazy(() =>
  import('./features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('./features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('./features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
const CompleteSetupPage = lazy(() =>
  import('./features/billing/CompleteSetupPage').then((m) => ({ default: m.CompleteSetupPage })),
);
const SetupSuccessPage = lazy(() =>
  import('./features/billing/SetupSuccessPage').then((m) => ({ default: m.SetupSuccessPage })),
);
const BillingIssuePage = lazy(() =>
  import('./features/billing/BillingIssuePage').then((m) => ({ default: m.BillingIssuePage })),
);
const DashboardPage = lazy(() =>
  import('./features/dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const WidgetPage = lazy(() => import('./features/widget/WidgetPage').then((m) => ({ default: m.WidgetPage })));
const PrivacyPolicyPage = lazy(() =>
  import('./features/legal/PrivacyPolicyPage').then((m) => ({ default: m.PrivacyPolicyPage })),
);
const TermsOfServicePage = lazy(() =>
  import('./features/legal/TermsOfServicePage').then((m) => ({ default: m.TermsOfServicePage })),
);

/** Every screen (docs/product.md#screens). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/login', element: <LoginPage /> },
      // The footer links to /signin; it is the same screen as /login.
      { path: '/signin', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password/:token', element: <ResetPasswordPage /> },
      { path: '/verify-email/:token', element: <VerifyEmailPage /> },
      { path: '/complete-setup', element: <CompleteSetupPage /> },
      { path: '/setup-success', element: <SetupSuccessPage /> },
      { path: '/billing-issue', element: <BillingIssuePage /> },
      // One route for the dashboard's sections, so moving between them keeps the loaded bots.
      { path: '/dashboard/:section?', element: <DashboardPage /> },
      { path: '/widget', element: <WidgetPage /> },
      { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
      { path: '/terms-of-service', element: <TermsOfServicePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
