import type { QuestionRendererProps } from '../registry';
import { TextField } from './TextField';
import { textOf } from '../answers';

export function TextQuestion(props: QuestionRendererProps<'text'>) {
  const { question } = props.view;
  return (
    <TextField field={props}>
      {(control) => (
        <input
          {...control}
          type="text"
          value={textOf(props.value)}
          inputMode={question.inputMode}
          autoComplete={question.autoComplete}
          onChange={(event) => props.onValueChange(event.target.value)}
        />
      )}
    </TextField>
  );
}
