import './app/fonts';
import './app/styles.css';

import { registerServiceWorker } from './app/pwa/register';
import { startApp } from './app/start';

startApp(document.getElementById('root')!);
registerServiceWorker();
