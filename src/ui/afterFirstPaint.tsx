import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useStore } from '../state/store';

/** What waits for the first paint is loaded in idle time this long after it at the latest. */
const IDLE_TIMEOUT_MS = 1000;
/** ...or this long after the page starts, if no chunks are painted (bad settings, an empty document). */
const UNPAINTED_TIMEOUT_MS = 3000;

let passed = false;

/**
 * Whether the first chunks have been painted and the page has had an idle moment since (once true, true for the
 * page's life). What the first screen does not need (Monaco, the lab, copy-as-code) is fetched after it, so that on
 * a slow network its bytes do not compete with the first paint's.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(passed);
  const painted = useStore((s) => s.paintedJobId > 0);
  useEffect(() => {
    if (after) return;
    const done = () => {
      passed = true;
      setAfter(true);
    };
    if (passed) return done();
    if (!painted) {
      const timer = setTimeout(done, UNPAINTED_TIMEOUT_MS);
      return () => clearTimeout(timer);
    }
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(done, 200);
      return () => clearTimeout(timer);
    }
    const id = requestIdleCallback(done, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  }, [after, painted]);
  return after;
}

/**
 * `children` (a React.lazy part) once the first paint is past; `placeholder` until then and while it loads: the
 * same outline, so nothing moves when the part arrives.
 */
export function AfterFirstPaint({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const after = useAfterFirstPaint();
  return after ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
}
