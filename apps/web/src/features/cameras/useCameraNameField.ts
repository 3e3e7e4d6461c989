import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/lib/http';
import { cameraNameProblem, problemFromServer, type CameraNameProblem } from './cameraName';

/** A camera-name input checked as the user types (after the first edit or submit) and by the server. */
export function useCameraNameField(existing: readonly string[], initial = '', current?: string) {
  const { t } = useTranslation('cameras');
  const [value, setValue] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [serverProblem, setServerProblem] = useState<CameraNameProblem>(null);
  const problem = cameraNameProblem(value, existing, current) ?? serverProblem;
  return {
    value,
    onChange: (next: string) => {
      setValue(next);
      setTouched(true);
      setServerProblem(null);
    },
    error: touched && problem ? t(`nameErrors.${problem}`) : null,
    /** Marks the field touched; true when the name may be sent. */
    validate: () => {
      setTouched(true);
      return cameraNameProblem(value, existing, current) === null;
    },
    /** Shows the server's answer inline when it is about the name; false otherwise. */
    fromServer: (error: unknown) => {
      const p = error instanceof ApiError ? problemFromServer(error.message) : null;
      setServerProblem(p);
      return p !== null;
    },
  };
}
