/** The prerendered screens (webpack's `prerender` configuration builds this for Node; docs/client.md "First screen"). */
export { renderLoginScreens } from './loginScreen';
export { renderHomeScreens } from './homeScreen';
