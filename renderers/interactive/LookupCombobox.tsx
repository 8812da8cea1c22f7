/**
 * The lookup combobox (SPEC 3.7, 4.9), built on downshift's useCombobox (WAI-ARIA combobox with a
 * listbox popup). Typing searches after the debounce; a suggestion shows its label and sub-text;
 * choosing one fetches its detail record and fills the related answers under the question's prefix;
 * "Use: …" keeps the typed text as a new value and clears the related answers; clearing the choice
 * empties them. Lookup failures are silent (SPEC 8).
 */
import { useCombobox } from 'downshift';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDebounce } from 'use-debounce';
import type { AnswerValue, QuestionRendererProps } from '../registry';
import type { LookupSource, LookupSuggestionData } from '../react';
import { cx } from './classNames';
import { Field, controlProps } from './Field';
import styles from './interactive.module.css';
import lookupStyles from './lookup.module.css';
import { focusHandoff } from './LookupQuestion';
import { textOf } from '../answers';

type Item =
  | ({ readonly kind: 'entry' } & LookupSuggestionData)
  | { readonly kind: 'new'; readonly text: string };

const itemToString = (item: Item | null) => item?.text ?? '';

export function LookupCombobox({
  view,
  value,
  answerOf,
  onAnswersChange,
  onBlur,
  errors,
  ids,
  source,
}: QuestionRendererProps<'lookup'> & { readonly source: LookupSource }) {
  const { question } = view;
  const isAddress = question.category === 'address';
  const text = textOf(value);

  // The fields a chosen entry fills, by the record's field name; the display label's key.
  const fills = useMemo(
    () => question.fills.map((field, index) => [field, view.fillKeys[index] ?? field] as const),
    [question.fills, view.fillKeys],
  );
  const displayKey = useMemo(() => {
    const field = isAddress ? 'address_line_1' : 'name';
    return fills.find(([name]) => name === field)?.[1] ?? view.key;
  }, [fills, isAddress, view.key]);

  /** The related answers emptied (for addresses the country stays: it is chosen first). */
  const cleared = (): Record<string, AnswerValue> => {
    const out: Record<string, AnswerValue> = {};
    for (const [field, key] of fills) {
      if (key === displayKey || (isAddress && field === 'country')) continue;
      out[key] = '';
      const desc = `${key}_desc`;
      if (textOf(answerOf(desc)) !== '') out[desc] = '';
    }
    return out;
  };

  // Only typing searches (not a label written by choosing an entry). Text typed into the plain input
  // while this component loaded counts as typed.
  const [handedOver] = useState(() => focusHandoff.key === view.key);
  const [query, setQuery] = useState(() => (handedOver ? text : ''));
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = inputRef.current;
    if (!handedOver || !input) return;
    focusHandoff.key = null;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [handedOver]);
  const [debounced] = useDebounce(query, source.debounce.wait, {
    maxWait: source.debounce.maxWait,
  });
  const [suggestions, setSuggestions] = useState<readonly LookupSuggestionData[]>([]);
  const [note, setNote] = useState(false);
  const [loading, setLoading] = useState(false);
  const choice = useRef(0);

  useEffect(() => {
    const typed = debounced.trim();
    if (typed === '') {
      setSuggestions([]);
      return;
    }
    let live = true;
    source.suggestions(question.category, typed).then(
      (list) => live && setSuggestions(list),
      () => live && setSuggestions([]),
    );
    return () => {
      live = false;
    };
  }, [debounced, question.category, source]);

  const typed = query.trim();
  const items = useMemo<Item[]>(
    () => [
      ...(typed === '' ? [] : suggestions.map((s) => ({ kind: 'entry' as const, ...s }))),
      ...(typed === '' ? [] : [{ kind: 'new' as const, text: typed }]),
    ],
    [suggestions, typed],
  );

  const choose = async (item: Item) => {
    const ticket = ++choice.current;
    setQuery('');
    if (item.kind === 'new') {
      setNote(!isAddress);
      onAnswersChange({ ...cleared(), [displayKey]: item.text });
      return;
    }
    setNote(false);
    onAnswersChange({ [displayKey]: item.text });
    setLoading(true);
    try {
      const record = await source.detail(question.category, item.id);
      if (ticket !== choice.current) return;
      const next: Record<string, AnswerValue> = { ...cleared() };
      for (const [field, key] of fills) {
        const filled = record[field];
        if (filled !== undefined) next[key] = filled;
        const desc = record[`${field}_desc`];
        if (desc !== undefined) next[`${key}_desc`] = desc;
      }
      next[displayKey] = record[isAddress ? 'address_line_1' : 'name'] || item.text;
      onAnswersChange(next);
      // A changed country clears a state that depends on it (SPEC 4.7) in the same write; the
      // second write, with the country already in place, keeps the record's state.
      onAnswersChange(next);
    } catch {
      // SPEC 4.9: the label is kept as typed; the related answers no longer belong to it.
      if (ticket === choice.current) onAnswersChange({ ...cleared(), [displayKey]: item.text });
    } finally {
      if (ticket === choice.current) setLoading(false);
    }
  };

  const clear = () => {
    choice.current++;
    setQuery('');
    setNote(false);
    setLoading(false);
    onAnswersChange({ ...cleared(), [view.key]: '', [displayKey]: '' });
  };

  const { isOpen, highlightedIndex, getInputProps, getMenuProps, getItemProps, openMenu } =
    useCombobox<Item>({
      items,
      itemToString,
      inputId: ids.input,
      inputValue: text,
      selectedItem: null,
      onInputValueChange: ({ inputValue, type }) => {
        if (type !== useCombobox.stateChangeTypes.InputChange) return;
        const next = inputValue ?? '';
        if (next === '') {
          clear();
          return;
        }
        choice.current++;
        setQuery(next);
        onAnswersChange({ [view.key]: next });
      },
      onSelectedItemChange: ({ selectedItem }) => {
        if (selectedItem) void choose(selectedItem);
      },
    });

  // Text typed into the plain input before this component loaded opens the list as typing would.
  useEffect(() => {
    if (handedOver && query.trim() !== '') openMenu();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handedOver]);

  const menuOpen = isOpen && items.length > 0;
  return (
    <Field
      ids={ids}
      label={question.label}
      required={view.required}
      help={question.help}
      errors={errors}
    >
      <div
        className={lookupStyles.combobox}
        data-state={menuOpen ? 'open' : 'closed'}
        data-category={question.category}
        aria-busy={loading || undefined}
      >
        <input
          {...getInputProps({
            ref: inputRef,
            name: view.key,
            type: 'text',
            // Downshift sets "off"; the applicant's own street address keeps its autofill hint.
            autoComplete: question.autoComplete ?? 'off',
            className: cx(styles.input, lookupStyles.input),
            maxLength: view.maxLength,
            onBlur,
            'aria-labelledby': undefined,
            'aria-required': view.required || undefined,
            ...controlProps(ids, question.help, errors),
          })}
        />
        {text !== '' ? (
          <button
            type="button"
            className={lookupStyles.clear}
            aria-label={source.text.clear}
            onClick={clear}
          >
            <span aria-hidden="true">×</span>
          </button>
        ) : null}
        <ul
          {...getMenuProps({ 'aria-label': question.label })}
          className={lookupStyles.menu}
          hidden={!menuOpen}
        >
          {menuOpen
            ? items.map((item, index) => (
                <li
                  key={item.kind === 'entry' ? `e:${item.id}` : 'new'}
                  {...getItemProps({ item, index })}
                  className={cx(
                    lookupStyles.option,
                    highlightedIndex === index && lookupStyles.highlighted,
                  )}
                  data-kind={item.kind}
                >
                  {item.kind === 'entry' ? (
                    <>
                      <span className={lookupStyles.label}>{item.text}</span>
                      {item.sub_text ? (
                        <span className={lookupStyles.subText}>{item.sub_text}</span>
                      ) : null}
                    </>
                  ) : (
                    <span className={lookupStyles.label}>{source.text.use(item.text)}</span>
                  )}
                </li>
              ))
            : null}
        </ul>
      </div>
      <p className={lookupStyles.note} role="status">
        {note ? source.text.newEntryNote : ''}
      </p>
    </Field>
  );
}
