/**
 * Every failure the API reports is an AppError: a status and a code from spec §8
 * (or `gone`, `invalid-token`). The error handler turns it into `{ message: CODE }`.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string) => new AppError(400, code);
export const unauthorized = (code = 'invalid-token') => new AppError(401, code);
export const notFound = (code = 'NO_DATA') => new AppError(404, code);
export const conflict = (code: string) => new AppError(409, code);
export const gone = () => new AppError(410, 'gone');
export const unprocessable = (code: string) => new AppError(422, code);
export const tooMany = (code = 'REQUEST_LIMIT') => new AppError(429, code);
