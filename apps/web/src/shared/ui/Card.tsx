import type { ComponentProps } from 'react';
import { cn } from './cn';

export function Card({ className, ...rest }: ComponentProps<'section'>) {
  return (
    <section {...rest} className={cn('rounded-2xl bg-slate-900 p-5 ring-1 ring-slate-800', className)} />
  );
}
