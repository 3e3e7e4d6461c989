import type { ReactNode } from 'react';
import { cn } from './cn';

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg px-3 py-2 text-sm ring-1',
        tone === 'error' && 'bg-red-950/60 text-red-200 ring-red-800',
        tone === 'info' && 'bg-slate-800 text-slate-200 ring-slate-700',
        tone === 'success' && 'bg-emerald-950/60 text-emerald-200 ring-emerald-800',
      )}
    >
      {children}
    </div>
  );
}
