import './app/fonts';
import './app/styles.css';

import { nextTask } from './app/nextTask';

/**
 * The boot in stages (docs/client.md "First screen"): webpack evaluates a module the first time something
 * imports it, and with every import static the whole app (React, Redux Toolkit, the router, i18next, every
 * slice) was evaluated in one task of ~65 ms on this machine kind, about 260 ms on Lighthouse's 4x slower
 * phone. Each stage below imports (and so evaluates) one part in a task of its own; `eager` keeps the parts
 * in the chunks already downloaded (no new request), and what a later stage imports again is not evaluated
 * twice.
 */
const STAGES: (() => Promise<unknown>)[] = [
  // The app's own modules, not the libraries' entry points: a dynamic import keeps every export of the module
  // it names, so importing a library's index here would undo tree shaking (35 KB gzip more). React DOM is
  // CommonJS and whole anyway.
  () => import(/* webpackMode: "eager" */ 'react-dom/client'),
  () => import(/* webpackMode: "eager" */ './core/authEvents'),
  () => import(/* webpackMode: "eager" */ './core/api'),
  () => import(/* webpackMode: "eager" */ './core/i18n'),
  () => import(/* webpackMode: "eager" */ './app/store'),
  () => import(/* webpackMode: "eager" */ './app/router'),
];

async function boot(container: HTMLElement): Promise<void> {
  for (const stage of STAGES) {
    await stage();
    await nextTask();
  }
  const [{ startApp }, { registerServiceWorker }] = await Promise.all([
    import(/* webpackMode: "eager" */ './app/start'),
    import(/* webpackMode: "eager" */ './app/pwa/register'),
  ]);
  await nextTask();
  startApp(container);
  registerServiceWorker();
}

void boot(document.getElementById('root')!);
