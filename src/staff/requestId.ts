let last = 0;

/** A fresh id for a request, so a reducer takes only the answer of the request it is waiting for. */
export const nextRequestId = (): string => `r${++last}`;

/** The code of a failed call: its StaffApiError's (staffApi.ts), otherwise GENERIC. */
export const codeOf = (e: unknown): string =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'GENERIC';
