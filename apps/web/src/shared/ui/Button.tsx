import type { ComponentProps } from 'react';
import { cn } from './cn';
import { Spinner } from './Spinner';

const variants = {
  primary: 'bg-brand-500 text-slate-950 hover:bg-brand-400 disabled:bg-slate-700 disabled:text-slate-300',
  secondary: 'bg-slate-800 text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700 disabled:text-slate-400',
  ghost: 'text-slate-200 hover:bg-slate-800 disabled:text-slate-500',
  danger: 'bg-red-600 text-white hover:bg-red-500 disabled:bg-slate-700 disabled:text-slate-300',
  link: 'text-brand-400 underline-offset-4 hover:underline px-0 py-0 h-auto',
} as const;

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants;
  busy?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  className,
  children,
  disabled,
  ...rest
}: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={cn(
        'inline-flex h-11 items-center justify-center gap-2 rounded-lg px-4 text-sm font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 disabled:cursor-not-allowed',
        variants[variant],
        className,
      )}
    >
      {busy ? <Spinner size="sm" /> : null}
      {children}
    </button>
  );
}
