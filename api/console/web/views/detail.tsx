// One submission, as the reviewer decides it: the upright preview, what is known of it, the similar
// images, its history, and the decision. Opening it claims it for CLAIM_SECONDS; leaving releases it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, must, previewUrl, type Match, type Me, type Schemas, type Submission } from '../api';
import { bytes, upright, when, words } from '../format';
import { go } from '../router';
import { ArtistOrgs, ProfileFlag } from './queue';
import { Similar } from './similar';
import { Suggestions, type Accepted } from './suggestions';

type Claim = Schemas['ConsoleClaim']['data'];
type Settled = Schemas['SignalResult'];

const NOTES_MIN = 3;
const NOTES_MAX = 2000;

/** A second-review reason (lib/intake/second-review.ts) in words: similar_image:<id>, content_flag:<flag>:<confidence>. */
export function reasonWords(r: string): string {
  const [kind, a, b] = r.split(':');
  if (kind === 'similar_image') return `similar to another artist's work (${a})`;
  if (kind === 'content_flag') return `a classifier flagged ${words(a ?? '')} (${b})`;
  return r;
}

type Offered = Submission['decisions'][number];

export function Detail({ id, me }: { id: string; me: Me }) {
  const [d, setD] = useState<Submission | null>(null);
  const [matches, setMatches] = useState<Match[]>([]);
  const [acknowledged, setAcknowledged] = useState(false);
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const [claim, setClaim] = useState<Claim | null>(null);
  const [notes, setNotes] = useState('');
  /** The reason code picked for each decision that takes one (its first code until one is picked). */
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Settled['data'] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const notesRef = useRef<HTMLTextAreaElement>(null);
  const path = { params: { path: { submissionId: id } } };
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const [c, detail, similar] = await Promise.all([
          must(api.POST('/console/api/submissions/{submissionId}/claim', path)),
          must(api.GET('/console/api/submissions/{submissionId}', path)),
          must(api.GET('/api/private/portfolio-intake/v1/submissions/{submissionId}/similar', path)),
        ]);
        if (!live) return;
        setClaim(c.data);
        setD(detail.data);
        setMatches(similar.data.matches);
      } catch (err) {
        if (live) setError((err as Error).message);
      }
    })();
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (e.key === 'Escape' && t.tagName !== 'SELECT') go({ name: 'queue' });
      if (e.key === 'a' && t.tagName !== 'TEXTAREA' && t.tagName !== 'INPUT') {
        e.preventDefault();
        notesRef.current?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => {
      live = false;
      removeEventListener('keydown', onKey);
      void api.DELETE('/console/api/submissions/{submissionId}/claim', path).catch(() => undefined);
    };
  }, [id]);
  /** One decision as the detail answer offers it (d.decisions): the notes, its reason code when it takes one, and approve's own parts. */
  const decide = async (offered: Offered) => {
    setError('');
    setBusy(true);
    try {
      const body = {
        reviewNotes: notes,
        ...(offered.reasonCodes ? { reasonCode: reasons[offered.kind] ?? offered.reasonCodes[0] } : {}),
        // What the operator saw and took of the machine's suggestions: approve's own fields.
        ...(offered.kind === 'approve' && matches.length ? { seenMatches: matches.map((m) => m.id), acknowledgeMatches: acknowledged } : {}),
        ...(offered.kind === 'approve' && accepted ? { accepted } : {}),
      };
      // Each decision's route is …/{submissionId}/<kind> (the typed client names them one by one).
      const route = `/api/private/portfolio-intake/v1/submissions/{submissionId}/${offered.kind}` as '/api/private/portfolio-intake/v1/submissions/{submissionId}/reject';
      const r = await must(api.POST(route, { ...path, body: body as never }));
      setResult(r.data);
      // What the decision wrote (its history line, the review status): read again, not left as opened.
      setD((await must(api.GET('/console/api/submissions/{submissionId}', path))).data);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (error && !d)
    return (
      <section>
        <p class="error" role="alert">
          {error}
        </p>
        <button onClick={() => go({ name: 'queue' })}>Back to the queue</button>
      </section>
    );
  if (!d) return <p class="muted">Loading…</p>;
  const blocked = claim !== null && !claim.mine;
  // The decisions its state takes, as the API offers them to this operator (none: nothing to decide here).
  const open = d.decisions.length > 0 && !result;
  const second = d.secondReview;
  // The operator who approved first may reject, never approve again (409 second_operator_required).
  const approvedFirst = d.decisions.some((o) => o.refusedBecause !== null);
  const notesLength = notes.trim().length;
  return (
    <section class="detail" data-testid="detail">
      <div>
        <p>
          <button onClick={() => history.back()}>← Back (Esc: the queue)</button>
        </p>
        <img class="large" src={previewUrl(d.submissionId, 'large')} alt={`preview of ${d.fileName}`} />
      </div>
      <div>
        <h2>{d.fileName}</h2>
        {blocked && (
          <p class="claim" data-testid="claimed">
            In review by {claim.claimedBy} until {when(claim.claimedUntil)}
          </p>
        )}
        <dl class="meta">
          <dt>Status</dt>
          <dd data-testid="status">{result && result.reviewStatus !== 'second_review_required' ? result.intakeStatus : d.intakeStatus}</dd>
          <dt>Submission</dt>
          <dd>
            <code>{d.submissionId}</code>
          </dd>
          <dt>Title</dt>
          <dd>{d.title ?? ''}</dd>
          <dt>Description</dt>
          <dd>{d.description ?? ''}</dd>
          <dt>Partner</dt>
          <dd>
            {d.partnerActorId} ({d.partnerOrganizationId ?? 'no organization'})
          </dd>
          <dt>Tenant</dt>
          <dd>{d.tenantId}</dd>
          <dt>Artist</dt>
          <dd>
            {d.artistCanonicalId}: {words(d.artistEvidence)}, <ProfileFlag s={d} />; <ArtistOrgs s={d} />
          </dd>
          <dt>Rights / consent</dt>
          <dd>
            {words(d.rightsPosture)} / {words(d.consentPosture)}
          </dd>
          <dt>Placement</dt>
          <dd data-testid="placement">{d.placement ? words(d.placement) : 'not given'}</dd>
          <dt>Image</dt>
          <dd data-testid="dimensions">
            {d.imageFormat ?? d.mimeType}, {upright(d)}, {bytes(d.sizeBytes)}
            {(d.imageFrames ?? 1) > 1 ? `, ${d.imageFrames} frames` : ''}
          </dd>
          <dt>Tags</dt>
          <dd>{d.tags.join(', ') || 'none'}</dd>
          <dt>Created</dt>
          <dd>{when(d.createdAt)}</dd>
          <dt>sha256</dt>
          <dd>
            <code class="hash">{d.verifiedSha256 ?? ''}</code>
          </dd>
        </dl>
        {second && (
          <div class="second-review" role="note" data-testid="second-review">
            <strong>Second review required.</strong> Approved first by {second.firstApprovedBy} at {when(second.firstApprovedAt)}.{' '}
            {second.firstNotes ? `Their notes: “${second.firstNotes}” ` : ''}Why a second operator: {second.reasons.map(reasonWords).join('; ') || 'the policy asked for one'}.{' '}
            {approvedFirst ? 'You approved first: another operator approves it; you may still reject it.' : 'Your approval promotes it; either of you may reject it.'}
          </div>
        )}
        <h3>Machine suggestions</h3>
        <Suggestions list={d.classifications} open={open} accepted={accepted} onAccept={setAccepted} />
        <h3>Similar images</h3>
        <Similar matches={matches} />
        <h3>History</h3>
        <ol class="events">
          {d.events.map((e, i) => (
            <li key={i}>
              {when(e.at)}: {e.fromStatus ?? 'new'} → <strong>{e.toStatus}</strong> by {e.actorId}
              {e.note ? `: ${e.note}` : ''}
            </li>
          ))}
        </ol>
        {open && (
          <form class="decide" onSubmit={(e) => e.preventDefault()}>
            <label for="notes">
              Notes ({NOTES_MIN} to {NOTES_MAX} characters; <kbd>a</kbd> to write)
            </label>
            <textarea id="notes" ref={notesRef} name="notes" rows={6} maxLength={NOTES_MAX} value={notes} onInput={(e) => setNotes((e.target as HTMLTextAreaElement).value)} />
            <span class="muted">
              {notesLength} of at least {NOTES_MIN} characters
            </span>
            {matches.some((m) => m.flagged) && (
              <label>
                <input type="checkbox" name="acknowledgeMatches" checked={acknowledged} onChange={(e) => setAcknowledged((e.target as HTMLInputElement).checked)} /> I looked at the
                similar images of another artist's work; my notes say why approving is right
              </label>
            )}
            <div class="actions">
              {d.decisions.map((o) => (
                <span key={o.kind} class="action">
                  {o.reasonCodes && (
                    <>
                      <label for={`reason-${o.kind}`}>{o.action} because</label>
                      <select
                        id={`reason-${o.kind}`}
                        name={`reason-${o.kind}`}
                        value={reasons[o.kind] ?? o.reasonCodes[0]}
                        onChange={(e) => setReasons({ ...reasons, [o.kind]: (e.target as HTMLSelectElement).value })}
                      >
                        {o.reasonCodes.map((r) => (
                          <option key={r} value={r}>
                            {words(r)}
                          </option>
                        ))}
                      </select>
                    </>
                  )}
                  <button class={o.tone} type="button" data-decision={o.kind} title={o.refusedBecause ?? undefined} disabled={blocked || busy || o.refusedBecause !== null} onClick={() => void decide(o)}>
                    {o.action}
                  </button>
                </span>
              ))}
            </div>
          </form>
        )}
        {result && (
          <p data-testid="result">
            Decided: <strong>{result.intakeStatus}</strong>. <button onClick={() => go({ name: 'queue' })}>Next in the queue</button>
          </p>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p class="muted">Signed in as {me.actorId}</p>
      </div>
    </section>
  );
}
