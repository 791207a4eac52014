// Fonts ship with the app (no external host): Noto Sans for Latin, Noto Sans Thai, Noto Sans Lao; the two
// weights the UI uses, and only the script subset each family is here for, with its character range (fonts.css).
import './fonts.css';
