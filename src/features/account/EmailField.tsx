import { TextField, type TextFieldProps } from '../../components/form/TextField';
import { accountText } from './accountText';

/** The e-mail address every account card asks for: one name, type and autofill hint for all. */
export function EmailField(props: Pick<TextFieldProps, 'value' | 'onValueChange' | 'error'>) {
  return (
    <TextField
      {...props}
      label={accountText.labels.email}
      name="username"
      type="email"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
    />
  );
}
