import { BLANK_OPTION, type OptionEntry } from '../../runtime';

export { BLANK_OPTION, type OptionEntry };
