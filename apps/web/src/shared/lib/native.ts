interface CapacitorGlobal {
  isNativePlatform?: () => boolean;
  getPlatform?: () => string;
}

function capacitor(): CapacitorGlobal | undefined {
  return (window as unknown as { Capacitor?: CapacitorGlobal }).Capacitor;
}

/** True inside the iOS/Android shell (Capacitor injects `window.Capacitor`). */
export function isNativeApp(): boolean {
  return capacitor()?.isNativePlatform?.() ?? false;
}

export type Platform = 'ios' | 'android' | 'web';

export function currentPlatform(): Platform {
  const p = capacitor()?.getPlatform?.();
  return p === 'ios' || p === 'android' ? p : 'web';
}
