export { BLANK_OPTION, type OptionEntry } from './option';
export { countries, countriesNoUsa } from './countries';
export { usStatesAndTerritories, canadianProvinces, stateAndProvince } from './states';
export { months } from './months';
