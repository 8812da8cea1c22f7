/**
 * "CSV columns" (admins, D168): which answer columns the office's CSV holds, chosen by their labels
 * in a dialog and saved for everyone in the tenant; "Reset to all columns" drops the choice. The
 * first columns (who, status, times) are always in the CSV.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageResponse } from '#contract';
import { exportColumnsResponse, type ExportColumns } from '#contract/staffExports.ts';
import ChromeDialogFrame from '../../chrome/ChromeDialogFrame';
import { TextField } from '../../components/form/TextField';
import { staffCall } from './api';
import styles from './staff.module.css';
import { Failure } from './ui';

const COLUMNS_KEY = ['staff', 'export-columns'];

export function ExportColumnsButton() {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={styles.secondary}
        onClick={() => {
          setSaved('');
          setOpen(true);
        }}
      >
        CSV columns
      </button>
      <p role="status" className="visually-hidden">
        {saved}
      </p>
      <ChromeDialogFrame
        title="Columns of the CSV"
        open={open}
        onOpenChange={setOpen}
        returnFocusTo={button}
      >
        {open ? (
          <ColumnChooser
            onDone={(message) => {
              setSaved(message);
              setOpen(false);
            }}
          />
        ) : null}
      </ChromeDialogFrame>
    </>
  );
}

function ColumnChooser({ onDone }: { onDone: (message: string) => void }) {
  const columns = useQuery({
    queryKey: COLUMNS_KEY,
    queryFn: () => staffCall(exportColumnsResponse, '/export-columns'),
  });
  if (columns.error) return <Failure error={columns.error} />;
  if (!columns.data) return <p role="status">Loading…</p>;
  return <ColumnList data={columns.data} onDone={onDone} />;
}

function ColumnList({ data, onDone }: { data: ExportColumns; onDone: (message: string) => void }) {
  const client = useQueryClient();
  const [chosen, setChosen] = useState(
    () => new Set(data.chosen ?? data.columns.map((column) => column.key)),
  );
  const [find, setFind] = useState('');
  const save = useMutation({
    mutationFn: (columns: string[] | null) =>
      columns
        ? staffCall(messageResponse, '/export-columns', { method: 'PUT', body: { columns } })
        : staffCall(messageResponse, '/export-columns', { method: 'DELETE' }),
    onSuccess: async ({ message }) => {
      await client.invalidateQueries({ queryKey: COLUMNS_KEY });
      onDone(message);
    },
  });
  const needle = find.trim().toLowerCase();
  const shown = data.columns.filter((column) => column.label.toLowerCase().includes(needle));
  const toggle = (key: string, on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const setShown = (on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      for (const column of shown)
        if (on) next.add(column.key);
        else next.delete(column.key);
      return next;
    });
  return (
    <>
      <p>
        The CSV always starts with the applicant, the status and the times. Choose the answers it
        holds after them; the choice is saved for everyone in the office.
      </p>
      <TextField label="Find a column" type="search" value={find} onValueChange={setFind} />
      <div className={styles.bar}>
        <button type="button" className={styles.secondary} onClick={() => setShown(true)}>
          Select {needle ? 'these' : 'all'}
        </button>
        <button type="button" className={styles.secondary} onClick={() => setShown(false)}>
          Clear {needle ? 'these' : 'all'}
        </button>
      </div>
      <fieldset className={styles.columnList}>
        <legend>
          {chosen.size} of {data.columns.length} answer columns
        </legend>
        {shown.map((column) => (
          <label key={column.key} className={styles.columnChoice}>
            <input
              type="checkbox"
              checked={chosen.has(column.key)}
              onChange={(event) => toggle(column.key, event.target.checked)}
            />
            {column.label}
          </label>
        ))}
        {shown.length === 0 ? <p>No column has that in its name.</p> : null}
      </fieldset>
      <Failure error={save.error} />
      <div className={styles.bar}>
        <button
          type="button"
          className={styles.primary}
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              data.columns.filter((column) => chosen.has(column.key)).map((column) => column.key),
            )
          }
        >
          Save columns
        </button>
        <button
          type="button"
          className={styles.secondary}
          disabled={save.isPending}
          onClick={() => save.mutate(null)}
        >
          Reset to all columns
        </button>
      </div>
    </>
  );
}
