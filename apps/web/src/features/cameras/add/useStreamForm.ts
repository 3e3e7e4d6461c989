import type { StreamConnectionInput } from '@homesitter/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/lib/http';
import { checkStreamForm, fieldOf, type StreamField, type StreamFormValues } from './streamConnection';

const FIELDS: readonly StreamField[] = ['host', 'port', 'url', 'username', 'password'];

/**
 * The stream-camera fields' state: problems show once a submit was tried and follow every edit after; the
 * server's field messages show until that field changes.
 */
export function useStreamForm(values: StreamFormValues, onChange: (values: StreamFormValues) => void) {
  const { t } = useTranslation('cameras');
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<Partial<Record<StreamField, string>>>({});
  const check = checkStreamForm(values);
  const errors: Partial<Record<StreamField, string | null>> = {};
  for (const field of FIELDS) {
    const problem = check.problems[field];
    errors[field] = tried && problem ? t(`add.stream.problems.${problem}`) : (server[field] ?? null);
  }
  return {
    errors,
    onChange: (next: StreamFormValues) => {
      setServer((shown) => {
        const kept: Partial<Record<StreamField, string>> = {};
        for (const field of FIELDS) {
          const message = shown[field];
          if (message && next[field] === values[field]) kept[field] = message;
        }
        return kept;
      });
      onChange(next);
    },
    /** Marks the form tried; the connection to send when it is right. */
    validate: (): StreamConnectionInput | null => {
      setTried(true);
      return check.connection;
    },
    /** Shows the server's 400 details on their fields; true when any was about one. */
    fromServer: (error: unknown): boolean => {
      if (!(error instanceof ApiError)) return false;
      const found: Partial<Record<StreamField, string>> = {};
      for (const detail of error.details) {
        const field = fieldOf(detail.field);
        if (field) found[field] = detail.message;
      }
      setServer(found);
      return Object.keys(found).length > 0;
    },
  };
}
