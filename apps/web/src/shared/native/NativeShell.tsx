import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { startNativeShell } from './index';

/** Mounted once inside the router; starts the native shell in the iOS/Android apps. Renders nothing. */
export function NativeShell() {
  const navigate = useNavigate();
  const latest = useRef(navigate);
  useEffect(() => {
    latest.current = navigate;
  }, [navigate]);
  useEffect(() => {
    void startNativeShell((to, options) => latest.current(to, options));
  }, []);
  return null;
}
