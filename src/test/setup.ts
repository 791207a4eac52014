import './support/commitPriorities';
import '@testing-library/jest-dom';

import { configure } from '@testing-library/react';

import { i18n, initI18n } from '../core/i18n';
import { server } from './support/server';

// Route modules load lazily; the first one compiles under ts-jest and can take a moment.
configure({ asyncUtilTimeout: 4000 });

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await initI18n('en');
});

afterEach(async () => {
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.className = '';
  document.body.removeAttribute('style');
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

afterAll(() => server.close());
