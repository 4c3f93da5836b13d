// The classification work queue: submissions awaiting review in the classifier's scope that it has
// not classified yet, oldest first, each leased to the claiming actor for a while so its replicas
// do not classify one image twice. Different classifiers (actors) each get every submission.
import type { Sql } from '../db';
import { firstReviewStatuses } from '../intake/vocabulary';
import { inScope, type ClassifierScope } from './classifications';

export interface Claimed {
  submissionId: string;
  awaitingSince: Date;
  leasedUntil: Date;
}

export async function claimForClassification(sql: Sql, a: ClassifierScope & { actorId: string }, o: { limit: number; leaseSeconds: number }): Promise<Claimed[]> {
  return sql.begin(async (tx) => {
    const free = await tx<{ submissionId: string; awaitingSince: Date }[]>`
      select s.submission_id, s.awaiting_since from submissions s
      where s.intake_status = any(${firstReviewStatuses}) and ${inScope(tx, a)}
        and not exists (select 1 from classifications c where c.submission_id = s.submission_id and c.actor_id = ${a.actorId})
        and not exists (select 1 from classification_leases l where l.submission_id = s.submission_id and l.actor_id = ${a.actorId} and l.leased_until > now())
      order by s.awaiting_since, s.submission_id
      limit ${o.limit}
      for update of s skip locked`;
    if (free.length === 0) return [];
    const leased = await tx<{ submissionId: string; leasedUntil: Date }[]>`
      insert into classification_leases (submission_id, actor_id, leased_until)
      select unnest(${free.map((f) => f.submissionId)}::text[]), ${a.actorId}, now() + make_interval(secs => ${o.leaseSeconds})
      on conflict (submission_id, actor_id) do update set leased_until = excluded.leased_until
      returning submission_id, leased_until`;
    const until = new Map(leased.map((l) => [l.submissionId, l.leasedUntil]));
    return free.map((f) => ({ ...f, leasedUntil: until.get(f.submissionId)! }));
  });
}
