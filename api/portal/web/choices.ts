// The portal's choices and the words it shows for them, typed by the generated API types.
import type { DeliveryStatus, KeyOverlapSeconds, KeyStatus, Permission } from './api';

export interface Overlap<S extends number = number> {
  seconds: S;
  label: string;
}

/** How long an old key keeps working after a rotation. */
export const KEY_OVERLAPS: Overlap<KeyOverlapSeconds>[] = [
  { seconds: 0, label: 'none: the old key stops now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
];

/** How long an old signing secret keeps signing after a rotation. */
export const SECRET_OVERLAPS: Overlap[] = KEY_OVERLAPS.map((o) => ({ ...o, label: o.seconds === 0 ? 'none: the old secret stops now' : o.label }));

/** The permission offered only under "Advanced", with a warning. */
export const ADVANCED: Permission = 'portfolio_intake:stage';

export const READ_LABELS: Partial<Record<Permission, string>> = {
  'studios:read': 'Studios',
  'artists:read': 'Artists',
  'search:read': 'Search',
  'portfolios:read': 'Portfolios',
  'designs:read': 'Designs',
};

/** Key statuses that can still be rotated and revoked. */
export const USABLE: readonly KeyStatus[] = ['active', 'expiring'];

/** A delivery being sent now cannot be sent again. */
export const IN_FLIGHT: DeliveryStatus = 'delivering';
