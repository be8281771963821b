import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormError } from '@/components/ui/form';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/card';
import { TextField } from '@/components/ui/input';
import { ApiError, api, read } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import type { Answer } from '@/lib/types';
import { AuthForm, AuthLayout, EndState } from './auth-layout';

const route = getRouteApi('/app-bare/device');

type DeviceRequest = Answer<'/api/device', 'get'>;

/**
 * CLI sign-in approval (device flow): the CLI prints a code and this URL; the signed-in person
 * checks the request is theirs and approves or denies it.
 */
export function DevicePage() {
  const { user_code: userCode } = route.useSearch();
  return userCode ? <Decide userCode={userCode} /> : <EnterCode />;
}

function EnterCode() {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const submit = () => void navigate({ to: '/device', search: { user_code: code.trim().toUpperCase() } });
  return (
    <AuthLayout title="Sign in a device" subtitle="Enter the code your terminal shows.">
      <AuthForm onSubmit={submit} label="Continue">
        <TextField
          label="Code"
          id="user-code"
          hint="Eight letters, like ABCD-EFGH."
          value={code}
          onValue={setCode}
          required
          autoFocus
          autoComplete="off"
          spellCheck={false}
          // The code's face on the input only: the label and the hint stay ordinary text.
          className="[&_input]:font-mono [&_input]:tracking-widest [&_input]:uppercase"
          placeholder="XXXX-XXXX"
        />
      </AuthForm>
    </AuthLayout>
  );
}

function Decide({ userCode }: { userCode: string }) {
  const request = useQuery({
    queryKey: ['device', userCode],
    queryFn: () => read<DeviceRequest>(api.GET('/api/device', { params: { query: { user_code: userCode } } })),
    staleTime: Infinity,
  });
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'deny') =>
      read<{ status: 'approved' | 'denied' }>(
        decision === 'approve'
          ? api.POST('/api/device/approve', { body: { user_code: userCode } })
          : api.POST('/api/device/deny', { body: { user_code: userCode } }),
      ),
  });

  if (decide.data?.status === 'approved') {
    return <EndState outcome="done" title="Device approved" text="Return to your terminal: it is signed in." />;
  }
  if (decide.data?.status === 'denied') {
    return (
      <EndState outcome="refused" title="Request denied" text="The terminal was not signed in. Nothing else changed." />
    );
  }
  if (request.error) {
    const unknown = request.error instanceof ApiError && request.error.status === 404;
    return (
      <EndState
        outcome="unknown"
        title={unknown ? 'Code not found' : 'Could not load the request'}
        text={
          unknown
            ? `No pending request has the code ${userCode}: it may have expired (codes last 10 minutes) or been decided already. Run the login command again for a new code.`
            : request.error.message
        }
      />
    );
  }
  return (
    <AuthLayout title="Approve this sign-in?" subtitle="Approve only if you started it in your own terminal just now.">
      {request.isLoading || !request.data ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-5" />
          <Skeleton className="h-5" />
          <Skeleton className="h-5" />
        </div>
      ) : (
        <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm">
          <dt className="text-muted-foreground">Code</dt>
          <dd className="font-mono tracking-wider">{request.data.userCode}</dd>
          <dt className="text-muted-foreground">Application</dt>
          <dd>{request.data.clientName}</dd>
          <dt className="text-muted-foreground">Requested</dt>
          <dd className="tabular">{formatDateTime(request.data.requestedAt)}</dd>
          <dt className="text-muted-foreground">From</dt>
          <dd className="font-mono text-xs break-all">{request.data.requesterIp ?? 'unknown address'}</dd>
          {request.data.requesterUserAgent && (
            <>
              <dt className="text-muted-foreground">Client</dt>
              <dd className="font-mono text-xs break-all">{request.data.requesterUserAgent}</dd>
            </>
          )}
          <dt className="text-muted-foreground">Expires</dt>
          <dd className="tabular">{formatDateTime(request.data.expiresAt)}</dd>
        </dl>
      )}
      <FormError message={decide.error?.message} />
      <div className="grid grid-cols-2 gap-2">
        <Button size="lg" disabled={!request.data || decide.isPending} onClick={() => decide.mutate('deny')}>
          Deny
        </Button>
        <Button
          size="lg"
          variant="primary"
          disabled={!request.data || decide.isPending}
          onClick={() => decide.mutate('approve')}
        >
          Approve
        </Button>
      </div>
    </AuthLayout>
  );
}
