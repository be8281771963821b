/**
 * The Channels section of /alerts: where notifications go (webhook, Slack, e-mail), each with a
 * test send. A webhook's signing secret is answered once, at creation, and shown once here.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Plus, Send, Trash2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';
import { Button, RowDangerButton } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/code';
import { Dialog, DialogContent, ItemConfirm } from '@/components/ui/dialog';
import { DialogFormFooter, Form } from '@/components/ui/form';
import { SelectField, TextField } from '@/components/ui/input';
import { RelativeTime } from '@/components/ui/relative-time';
import { EmptyState } from '@/components/ui/states';
import { QueryTable, TD, TR } from '@/components/ui/table';
import { api, read } from '@/lib/api';
import { useRowAction } from '@/lib/use-row-action';
import { channelsKey, channelsQuery, eventsKey } from './api';
import {
  CHANNEL_KINDS,
  channelKindLabel,
  type AlertChannel,
  type ChannelKind,
  type CreatedChannel,
  type TestOutcome,
} from './types';

export function ChannelsSection({ projectId, writable }: { projectId: string; writable: boolean }) {
  const queryClient = useQueryClient();
  const channels = useQuery(channelsQuery(projectId));
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<CreatedChannel | null>(null);
  const [outcomes, setOutcomes] = useState<Record<string, TestOutcome>>({});

  const test = useMutation({
    mutationFn: (channel: AlertChannel) =>
      read<TestOutcome>(
        api.POST('/api/alert-channels/{id}/test', { params: { path: { id: channel.id }, query: { projectId } } }),
      ),
    onSuccess: async (outcome, channel) => {
      setOutcomes((previous) => ({ ...previous, [channel.id]: outcome }));
      if (outcome.outcome === 'delivered') toast.success(`Test sent through ${channel.name}`);
      else toast.error(`Test through ${channel.name} failed${outcome.error ? `: ${outcome.error}` : ''}`);
      await queryClient.invalidateQueries({ queryKey: eventsKey(projectId) });
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useRowAction({
    call: (channel: AlertChannel) =>
      read(api.DELETE('/api/alert-channels/{id}', { params: { path: { id: channel.id }, query: { projectId } } })),
    refresh: [channelsKey(projectId)],
    success: (channel) => `Channel ${channel.name} deleted`,
  });

  return (
    <Card aria-label="Channels">
      <CardHeader
        title="Channels"
        description="Where notifications go. Organization channels serve every project of the organization."
        actions={
          writable && (
            <Button size="sm" variant="primary" onClick={() => setCreating(true)}>
              <Plus aria-hidden /> New channel
            </Button>
          )
        }
      />
      <QueryTable
        query={channels}
        label="Alert channels"
        columns={['Name', 'Kind', { label: 'Target', className: 'w-full' }, 'Created']}
        actions={writable}
        skeletonRows={3}
        empty={
          <EmptyState title="No channels yet">
            {writable
              ? 'Add a webhook, a Slack incoming webhook or e-mail addresses, then pick it in a rule.'
              : 'A member with the write role can add channels.'}
          </EmptyState>
        }
        row={(channel) => {
          const outcome = outcomes[channel.id];
          return (
            <TR key={channel.id} data-channel={channel.name}>
              <TD className="font-medium whitespace-nowrap">
                {channel.name}
                {channel.scope === 'organization' && (
                  <span className="ml-2 rounded bg-muted px-1 text-[11px] text-muted-foreground">organization</span>
                )}
              </TD>
              <TD className="whitespace-nowrap">{channelKindLabel(channel.kind)}</TD>
              <TD className="max-w-0 truncate font-mono text-xs text-muted-foreground" title={target(channel)}>
                {target(channel)}
              </TD>
              <TD className="whitespace-nowrap text-muted-foreground">
                <RelativeTime value={channel.createdAt} />
              </TD>
              {writable && (
                <TD>
                  <div className="flex items-center justify-end gap-1.5">
                    {outcome && (
                      <span
                        role="status"
                        data-testid="test-outcome"
                        className="inline-flex items-center gap-1 text-xs whitespace-nowrap"
                        title={outcome.error ?? undefined}
                      >
                        {outcome.outcome === 'delivered' ? (
                          <CheckCircle2 className="size-3.5 text-success" aria-hidden />
                        ) : (
                          <XCircle className="size-3.5 text-danger" aria-hidden />
                        )}
                        {outcome.outcome === 'delivered' ? 'Delivered' : 'Failed'}
                        {outcome.responseStatus !== null && ` (${outcome.responseStatus})`}
                      </span>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={test.isPending && test.variables?.id === channel.id}
                      onClick={() => test.mutate(channel)}
                      aria-label={`Send a test through ${channel.name}`}
                    >
                      <Send aria-hidden /> Test
                    </Button>
                    {channel.scope === 'project' && (
                      <RowDangerButton action={remove} row={channel} label={`Delete ${channel.name}`}>
                        <Trash2 aria-hidden />
                      </RowDangerButton>
                    )}
                  </div>
                </TD>
              )}
            </TR>
          );
        }}
      />
      {creating && (
        <CreateChannelDialog
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            if (created.secret) setSecret(created);
          }}
        />
      )}
      <Dialog open={secret !== null} onOpenChange={(open) => !open && setSecret(null)}>
        {secret && (
          <DialogContent
            title="Webhook signing secret"
            description="Shown this once: store it where the receiver verifies the Sightline-Signature header."
            className="max-w-xl"
          >
            <div className="flex min-w-0 items-start gap-2 rounded-md border bg-muted py-1.5 pr-1.5 pl-3">
              <code className="min-w-0 flex-1 py-1 font-mono text-xs leading-5 break-all" data-testid="webhook-secret">
                {secret.secret}
              </code>
              <CopyButton value={secret.secret ?? ''} label="webhook secret" />
            </div>
            <div className="flex justify-end">
              <Button variant="primary" onClick={() => setSecret(null)}>
                I stored it
              </Button>
            </div>
          </DialogContent>
        )}
      </Dialog>
      <ItemConfirm
        action={remove}
        title={`Delete channel ${remove.item?.name ?? ''}?`}
        description="Rules that use it stop sending there. Its past deliveries stay in the history."
        confirmLabel="Delete channel"
      />
    </Card>
  );
}

function target(channel: AlertChannel): string {
  if (channel.kind === 'email') return (channel.addresses ?? []).join(', ');
  if (channel.kind === 'slack') return channel.urlHint ?? '';
  return channel.url ?? '';
}

function CreateChannelDialog({
  projectId,
  onClose,
  onCreated,
}: {
  projectId: string;
  onClose: () => void;
  onCreated: (created: CreatedChannel) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ChannelKind>('webhook');
  const [url, setUrl] = useState('');
  const [addresses, setAddresses] = useState('');
  const create = useMutation({
    mutationFn: () =>
      read<CreatedChannel>(
        api.POST('/api/alert-channels', {
          params: { query: { projectId } },
          body:
            kind === 'email'
              ? { name, kind, addresses: addresses.split(/[\s,;]+/).filter((address) => address !== '') }
              : { name, kind, url: url.trim() },
        }),
      ),
    onSuccess: async (created) => {
      toast.success(`Channel ${created.name} created`);
      await queryClient.invalidateQueries({ queryKey: channelsKey(projectId) });
      onCreated(created);
    },
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title="New channel"
        description="Test it after creating it: the outcome shows in the list and the history."
      >
        <Form onSubmit={() => create.mutate()}>
          <TextField label="Name" id="channel-name" value={name} onValue={setName} required maxLength={100} autoFocus />
          <SelectField label="Kind" id="channel-kind" value={kind} onValue={setKind} options={CHANNEL_KINDS} />
          {kind === 'email' ? (
            <TextField
              label="Addresses"
              id="channel-addresses"
              hint="Separated by commas or spaces; at most 20."
              value={addresses}
              onValue={setAddresses}
              required
              placeholder="oncall@example.com"
            />
          ) : (
            <TextField
              label={kind === 'slack' ? 'Incoming webhook URL' : 'URL'}
              id="channel-url"
              hint={
                kind === 'slack'
                  ? 'Kept encrypted; only its end is shown afterwards.'
                  : 'Receives a signed JSON POST for every notification.'
              }
              type="url"
              value={url}
              onValue={setUrl}
              required
              placeholder="https://"
            />
          )}
          <DialogFormFooter
            error={create.error}
            pending={create.isPending}
            label="Create channel"
            pendingLabel="Creating…"
            onCancel={onClose}
          />
        </Form>
      </DialogContent>
    </Dialog>
  );
}
