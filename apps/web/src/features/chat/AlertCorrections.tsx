import type { ActivityRecognition } from '@homesitter/contract';
import { STALE_TIME_MS } from '@homesitter/contract/runtime';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { Check, ChevronDown, UserRoundSearch, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../shared/lib/toast';
import { useMemories } from '../memories/api';
import { fetchRecognition, postCorrection, recognitionKey } from './recognitionApi';

/** Activities of one alert whose recognition is looked up (an alert rarely holds more). */
const MAX_ACTIVITIES = 5;

interface Person {
  memoryUuid: string;
  name: string;
  /** The alert's activities this person was recognised in. */
  activities: string[];
}

interface Correction {
  memoryUuid: string;
  name: string;
  isCorrect: boolean;
  activities: string[];
}

function peopleOf(recognitions: ActivityRecognition[]): Person[] {
  const people = new Map<string, Person>();
  for (const r of recognitions)
    for (const m of r.recognised) {
      if (m.category !== 'people') continue;
      const person = people.get(m.memory_uuid) ?? { memoryUuid: m.memory_uuid, name: m.name, activities: [] };
      person.activities.push(r.activity_uuid);
      people.set(m.memory_uuid, person);
    }
  return [...people.values()];
}

const chip =
  'inline-flex min-h-9 items-center gap-1.5 rounded-full px-3 text-xs font-semibold ring-1 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 disabled:opacity-60';

/**
 * One tap on an alert teaches the home sitter: "Yes, that's Rose" / "Not Rose" for each person it
 * recognised, and "Who is this?" (pick a person) when it saw a face it did not know.
 */
export function AlertCorrections({ activityUuids }: { activityUuids: string[] }) {
  const { t } = useTranslation('chat');
  const queryClient = useQueryClient();
  const [thanks, setThanks] = useState<{ memoryUuid: string; text: string } | null>(null);
  const ids = activityUuids.slice(0, MAX_ACTIVITIES);
  const recognitions = useQueries({
    queries: ids.map((id) => ({
      queryKey: recognitionKey(id),
      queryFn: () => fetchRecognition(id),
      staleTime: STALE_TIME_MS,
      retry: false,
    })),
    combine: (results) => results.flatMap((r) => (r.data ? [r.data] : [])),
  });
  const people = peopleOf(recognitions).filter((p) => p.memoryUuid !== thanks?.memoryUuid);
  const unknownIn = recognitions
    .filter((r) => r.can_learn && r.unknown_faces > 0)
    .map((r) => r.activity_uuid);

  const correction = useMutation({
    mutationFn: async (c: Correction) => {
      for (const activity of c.activities) await postCorrection(activity, c.memoryUuid, c.isCorrect);
    },
    onSuccess: (_, c) => {
      setThanks({
        memoryUuid: c.memoryUuid,
        text: t(c.isCorrect ? 'corrections.confirmed' : 'corrections.rejected', { name: c.name }),
      });
      for (const id of ids) void queryClient.invalidateQueries({ queryKey: recognitionKey(id) });
    },
    onError: () => notify.error(t('corrections.failed')),
  });
  const busy = correction.isPending;

  if (people.length === 0 && unknownIn.length === 0 && !thanks) return null;
  return (
    <div
      role="group"
      aria-label={t('corrections.label')}
      className="flex max-w-[85%] flex-wrap items-center gap-2 px-1 md:max-w-[70%]"
    >
      {people.map((p) => (
        <span key={p.memoryUuid} className="contents">
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              correction.mutate({
                memoryUuid: p.memoryUuid,
                name: p.name,
                isCorrect: true,
                activities: p.activities,
              })
            }
            className={`${chip} bg-emerald-500/15 text-emerald-200 ring-emerald-500/40 hover:bg-emerald-500/25`}
          >
            <Check className="size-3.5" aria-hidden="true" />
            {t('corrections.confirm', { name: p.name })}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              correction.mutate({
                memoryUuid: p.memoryUuid,
                name: p.name,
                isCorrect: false,
                activities: p.activities,
              })
            }
            className={`${chip} bg-slate-800 text-slate-200 ring-slate-600 hover:bg-slate-700`}
          >
            <X className="size-3.5" aria-hidden="true" />
            {t('corrections.reject', { name: p.name })}
          </button>
        </span>
      ))}
      {unknownIn.length > 0 ? (
        <WhoIsThis
          disabled={busy}
          onPick={(memoryUuid, name) =>
            correction.mutate({ memoryUuid, name, isCorrect: true, activities: unknownIn })
          }
        />
      ) : null}
      <p role="status" className="w-full text-xs text-emerald-300 empty:hidden">
        {thanks?.text ?? ''}
      </p>
    </div>
  );
}

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-100 outline-none data-[disabled]:cursor-default data-[disabled]:text-slate-400 data-[highlighted]:bg-slate-700';

/** "Who is this?": the user's people memories to pick from. */
function WhoIsThis({
  disabled,
  onPick,
}: {
  disabled: boolean;
  onPick: (memoryUuid: string, name: string) => void;
}) {
  const { t } = useTranslation('chat');
  const memories = useMemories();
  const people = memories.data?.people ?? [];
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        disabled={disabled}
        className={`${chip} bg-brand-500/15 text-brand-200 ring-brand-500/40 hover:bg-brand-500/25`}
      >
        <UserRoundSearch className="size-3.5" aria-hidden="true" />
        {t('corrections.whoIsThis')}
        <ChevronDown className="size-3.5" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 max-h-72 min-w-48 overflow-y-auto rounded-xl bg-slate-800 p-1 shadow-xl ring-1 ring-slate-700"
        >
          {people.length === 0 ? (
            <DropdownMenu.Item disabled className={itemClass}>
              {t('corrections.noPeople')}
            </DropdownMenu.Item>
          ) : (
            people.map((person) => (
              <DropdownMenu.Item
                key={person.memory_uuid}
                className={itemClass}
                onSelect={() => onPick(person.memory_uuid, person.name)}
              >
                {person.name}
              </DropdownMenu.Item>
            ))
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
