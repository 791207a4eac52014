// Fonts ship with the app (no external host): Noto Sans for Latin, Noto Sans Thai, Noto Sans Lao; the two
// weights the UI uses, and only the script subset each family is here for.
import '@fontsource/noto-sans/latin-400.css';
import '@fontsource/noto-sans/latin-700.css';
import '@fontsource/noto-sans-thai/thai-400.css';
import '@fontsource/noto-sans-thai/thai-700.css';
import '@fontsource/noto-sans-lao/lao-400.css';
import '@fontsource/noto-sans-lao/lao-700.css';
