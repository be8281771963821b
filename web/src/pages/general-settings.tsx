/**
 * The General card of the project and the organization settings: a name and one choice (the
 * framework, the time zone) saved together; a role that cannot change them reads them as a list.
 */
import { Fragment, useEffect, useState } from 'react';
import { SubmitButton } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Form } from '@/components/ui/form';
import { SelectField, TextField, type SelectOption } from '@/components/ui/input';

export interface GeneralDraft {
  name: string;
  choice: string;
}

export function GeneralSettingsCard({
  editable,
  description,
  facts,
  saved,
  nameField,
  choiceField,
  save,
}: {
  editable: boolean;
  /** Above the form (what the settings affect). */
  description: string;
  /** What a role that cannot edit sees instead of the form; `mono` for an id. */
  facts: ReadonlyArray<{ term: string; value: string; mono?: boolean }>;
  saved: GeneralDraft;
  nameField: { label: string; id: string };
  choiceField: { label: string; id: string; options: ReadonlyArray<SelectOption & { value: string }> };
  save: { mutate: (draft: GeneralDraft) => void; isPending: boolean; error: Error | null };
}) {
  const [name, setName] = useState(saved.name);
  const [choice, setChoice] = useState(saved.choice);
  // A save (or another tab's) brings new saved values: the form starts again from them.
  useEffect(() => {
    setName(saved.name);
    setChoice(saved.choice);
  }, [saved.name, saved.choice]);

  if (!editable) {
    return (
      <Card>
        <CardHeader title="General" />
        <dl className="grid grid-cols-[8rem_1fr] gap-y-2 px-4 py-3 text-sm">
          {facts.map((fact) => (
            <Fragment key={fact.term}>
              <dt className="text-muted-foreground">{fact.term}</dt>
              <dd className={fact.mono ? 'font-mono text-xs leading-5' : undefined}>{fact.value}</dd>
            </Fragment>
          ))}
        </dl>
      </Card>
    );
  }
  const changed = name.trim() !== saved.name || choice !== saved.choice;
  return (
    <Card>
      <CardHeader title="General" description={description} />
      <Form layout="row" onSubmit={() => save.mutate({ name, choice })} error={save.error?.message}>
        <TextField className="w-72" {...nameField} value={name} onValue={setName} required maxLength={100} />
        <SelectField className="w-64" {...choiceField} value={choice} onValue={setChoice} />
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={!changed || name.trim() === ''}>
          Save
        </SubmitButton>
      </Form>
    </Card>
  );
}
