// One promoted draft: its image, the plan, Publish and Unpublish behind a confirmation, and settling
// a posture with the value chosen and how it was established.
import { useEffect, useState } from 'preact/hooks';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from '../../../../../lib/directory/postures-vocabulary';
import { api, must, previewUrl, type Draft, type Plan, type Schemas } from '../../api';
import { bytes, when, words } from '../../format';
import { linkTo } from '../../router';
import { ArtistLookup, type Profile } from './artist-lookup';
import { Confirm } from './confirm';
import { plan, PlanLines } from './plan';

type Takedown = Schemas['Takedown']['data'];

export function DraftCard({ d, reload, say }: { d: Draft; reload: () => Promise<void>; say: (m: string, error?: boolean) => void }) {
  const [p, setP] = useState<Plan | null>(null);
  const [artist, setArtist] = useState<Profile | null>(null);
  const [rights, setRights] = useState('');
  const [consent, setConsent] = useState('');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState<{ title: string; lines: string[]; action: string; danger?: boolean; run: () => Promise<void> } | null>(null);
  // A published card shows its public renditions (a read of the rows: cheap); a draft's plan renders
  // its renditions, so it is made when asked for.
  useEffect(() => {
    if (d.publication === 'published') void plan(d.documentId, undefined).then(setP, () => undefined);
  }, [d.documentId, d.publication]);
  const act = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      say((err as Error).message, true);
    }
  };
  const review = () => act(async () => setP(await plan(d.documentId, artist?.id)));
  const publish = () =>
    act(async () => {
      const planned = await plan(d.documentId, artist?.id);
      setP(planned);
      if (planned.verdict !== 'publishable') {
        say(`${d.fileName} cannot be published yet: ${planned.reasons.map((r) => r.message).join(' ')}`, true);
        return;
      }
      setConfirm({
        title: `Publish ${d.fileName}?`,
        action: 'Publish',
        lines: [
          `"${planned.asset.title}" becomes public as ${planned.assetId}.`,
          `Under the artist profile ${planned.asset.artist_id ?? '?'}${planned.linksArtistProfile ? `, linked to ${planned.artistCanonicalId} from now on` : ''}.`,
          `${planned.renditions.length} renditions: ${planned.renditions.map((r) => `${r.name} ${r.width} × ${r.height} (${bytes(r.sizeBytes)})`).join(', ')}.`,
          `Rights ${words(planned.postureCheck.rightsPosture)}, consent ${words(planned.postureCheck.consentPosture)}.`,
        ],
        run: async () => {
          await must(api.POST('/api/private/portfolio-intake/v1/media-documents/{documentId}/publish', { params: { path: { documentId: d.documentId } }, body: { dryRun: false, ...(artist ? { artistId: artist.id } : {}) } }));
          say(`${d.fileName} published.`);
          await reload();
        },
      });
    });
  const unpublish = () =>
    act(async () => {
      if (!d.assetId) return;
      const r = (await must(api.POST('/api/private/portfolio-intake/v1/portfolio-assets/{assetId}/unpublish', { params: { path: { assetId: d.assetId } }, body: { dryRun: true, reason } }))).data as Takedown;
      setConfirm({
        title: `Take ${d.fileName} down?`,
        action: 'Unpublish',
        danger: true,
        lines: [
          `"${r.title ?? d.title ?? d.fileName}" (${r.assetId}) leaves every public read; its image URLs answer 410.`,
          `${r.renditions?.length ?? 0} renditions are deleted${r.renditions?.length ? `: ${r.renditions.map((x) => `${x.name} (${bytes(x.sizeBytes)})`).join(', ')}` : ''}.`,
          `Reason kept with the asset: "${reason.trim()}".`,
          'It is not published again.',
        ],
        run: async () => {
          await must(api.POST('/api/private/portfolio-intake/v1/portfolio-assets/{assetId}/unpublish', { params: { path: { assetId: d.assetId! } }, body: { dryRun: false, reason } }));
          say(`${d.fileName} taken down.`);
          await reload();
        },
      });
    });
  const settle = () =>
    act(async () => {
      await must(
        api.POST('/api/private/portfolio-intake/v1/media-documents/{documentId}/postures', {
          params: { path: { documentId: d.documentId } },
          body: { ...(rights ? { rightsPosture: rights as (typeof PUBLISHABLE_RIGHTS)[number] } : {}), ...(consent ? { consentPosture: consent as (typeof PUBLISHABLE_CONSENT)[number] } : {}), note },
        }),
      );
      say(`Postures of ${d.fileName} settled.`);
      await reload();
    });
  const needsRights = d.rightsPosture === 'review_required';
  const needsConsent = d.consentPosture === 'review_required';
  const settleReady = (!needsRights || rights) && (!needsConsent || consent) && note.trim().length >= 3;
  const image = d.publication === 'published' && p?.renditions.length ? p.renditions.find((r) => r.name === 'thumb') ?? p.renditions[0]! : undefined;
  return (
    <article class="card" data-document={d.documentId}>
      <div class="card-head">
        {image ? (
          <img src={image.url} alt={`public rendition of ${d.fileName}`} width={image.width} height={image.height} data-testid="rendition-image" />
        ) : (
          <img src={previewUrl(d.submissionId, 'thumb')} alt={`preview of ${d.fileName}`} width={120} height={120} />
        )}
        <div>
          <h3>{d.fileName}</h3>
          <p class="muted">
            {d.title ?? 'untitled'} · <code>{d.documentId}</code>
          </p>
          <p>
            <span class={`badge ${d.publication}`} data-testid="publication">
              {d.publication}
            </span>{' '}
            approved by {d.approvedBy}, {when(d.createdAt)}
          </p>
          <p>
            Artist {d.artistCanonicalId}; rights {words(d.rightsPosture)}, consent {words(d.consentPosture)}.{' '}
            <a {...linkTo({ name: 'submission', id: d.submissionId })}>Submission</a>
          </p>
        </div>
      </div>
      {p && <PlanLines p={p} />}
      {d.publication === 'draft' && (
        <div class="actions-block">
          {(needsRights || needsConsent) && (
            <fieldset class="settle">
              <legend>Settle the posture under review</legend>
              {needsRights && (
                <label>
                  Rights, as established
                  <select name="rightsPosture" value={rights} onChange={(e) => setRights((e.target as HTMLSelectElement).value)}>
                    <option value="">choose…</option>
                    {PUBLISHABLE_RIGHTS.map((v) => (
                      <option key={v} value={v}>
                        {words(v)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {needsConsent && (
                <label>
                  Consent, as established
                  <select name="consentPosture" value={consent} onChange={(e) => setConsent((e.target as HTMLSelectElement).value)}>
                    <option value="">choose…</option>
                    {PUBLISHABLE_CONSENT.map((v) => (
                      <option key={v} value={v}>
                        {words(v)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <label>
                How it was established (3 to 2000 characters)
                <textarea name="note" rows={3} value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
              </label>
              <button name="settle" disabled={!settleReady} onClick={() => void settle()}>
                Settle postures
              </button>
            </fieldset>
          )}
          <ArtistLookup onPick={setArtist} />
          {artist && (
            <p data-testid="picked-artist">
              Publishing under <strong>{artist.name}</strong> ({artist.studioName ?? 'no studio'}, {artist.city ?? 'no city'}) <code>{artist.id}</code>{' '}
              <button type="button" onClick={() => setArtist(null)}>
                Clear
              </button>
            </p>
          )}
          <p>
            <button name="plan" onClick={() => void review()}>
              Review the plan
            </button>{' '}
            <button class="primary" name="publish" onClick={() => void publish()}>
              Publish…
            </button>
          </p>
        </div>
      )}
      {d.publication === 'published' && (
        <div class="actions-block">
          <label>
            Reason for the takedown (3 to 2000 characters; kept with the asset)
            <textarea name="reason" rows={2} value={reason} onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)} />
          </label>
          <p>
            <button class="danger" name="unpublish" disabled={reason.trim().length < 3} onClick={() => void unpublish()}>
              Unpublish…
            </button>
          </p>
        </div>
      )}
      {confirm && (
        <Confirm
          {...confirm}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const run = confirm.run;
            setConfirm(null);
            void act(run);
          }}
        />
      )}
    </article>
  );
}
