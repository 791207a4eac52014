import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * After a submit that found errors, move focus to the first invalid control, whose label and error message
 * (aria-describedby) a screen reader then reads. Call `refused()` when the submit is refused.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>) {
  const [attempt, setAttempt] = useState(0);
  const seen = useRef(0);
  useEffect(() => {
    if (attempt === seen.current) return;
    seen.current = attempt;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt, form]);
  return () => setAttempt((n) => n + 1);
}
