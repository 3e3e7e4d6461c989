export const CHANGE_PLAN_PATH = '/settings/account/change-plan';
export const CANCEL_SUBSCRIPTION_PATH = '/settings/account/cancel';

/** A link that looks like a secondary button. */
export const secondaryLinkClass =
  'inline-flex h-11 w-fit items-center justify-center rounded-lg bg-slate-800 px-4 text-sm font-semibold text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';
