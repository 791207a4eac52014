// Side-effect and asset imports handled by webpack (and stubbed under jest).
declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module 'moment/locale/*';
