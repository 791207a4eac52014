import { errorText } from '../../../core/notify';

/** The server's answer for this step, translated (errors.<CODE>); announced when it appears. */
export function StepError({ code, values }: { code: string | null; values?: Record<string, unknown> }) {
  return (
    <p className="form__error" role="alert" data-testid="register-error">
      {code ? errorText(code, values) : ''}
    </p>
  );
}
