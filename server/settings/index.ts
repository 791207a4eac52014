/**
 * The settings store (issue 41): a core below the features. Features, the CLIs and the seed read and write settings
 * here, never through another feature.
 */
export { readSetting, writeSetting, readSettingDoc, writeSettingDoc } from './store';
export {
  TEXT_LANGS,
  HOWTO_KEYS,
  type Settings,
  type SettingKey,
  type LocalizedText,
  type LocalizedNames,
  type LocalizedHtml,
  type TextLang,
  type Market,
  type HowtoKey,
  type HowtoVideo,
} from './types';
