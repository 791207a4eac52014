import { boot } from './app/firstPaint';

// index.html's first script: shows the prerendered screen, if any, then starts the app (app/firstPaint.ts).
void boot(document);
