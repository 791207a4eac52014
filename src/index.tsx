import './app/fonts';
import './app/styles.css';

import { startApp } from './app/start';

startApp(document.getElementById('root')!);
